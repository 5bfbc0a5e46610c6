/**
 * The README and the guides it links: their commands are walked, their samples made, their flags checked
 * (test/docs/readme.ts).
 */
export const PAGES = [
  'README.md',
  'docs/checking.md',
  'docs/criteria.md',
  'docs/adopting.md',
  'docs/ci.md',
  'docs/library.md',
  'docs/quality.md',
  'docs/performance.md',
];

/** The README stays a front page: what it is, the first run, where each guide is (issue 55). */
export const README_MAX_LINES = 250;
