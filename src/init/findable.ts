// init's minimal descriptions: of the candidates (the first sentence of the prose, the first two,
// with the title), those the minimal-description rule passes, and of them the shortest that keeps
// the tool findable by the selection rule (src/rules/selection.ts).
import { LOW_TOP1, queriesOf, selectionFigures, type SelectionFigures } from '../rules/selection.js';
import { minimalDescriptionProblems, minimalFrom, proseOf } from '../rules/minimal-description.js';
import { sentences } from '../util/words.js';
import { REVIEW } from './review.js';

/** Rounds of lengthening: each gives the tools still hard to find their next candidate. */
const ROUNDS = 3;

export interface Findable {
  /** The minimal description chosen for each tool (by index). */
  descriptions: string[];
  figures: SelectionFigures;
}

function candidates(tool: Record<string, unknown>): string[] {
  const text = typeof tool.description === 'string' ? tool.description : '';
  const first = minimalFrom(text);
  const out = [first];
  if (sentences(proseOf(text)).length > 1) out.push(minimalFrom(text, 2));
  if (typeof tool.title === 'string' && tool.title.trim() && first) out.push(`${tool.title.trim()}: ${first}`);
  // Only what the rule the checker applies passes: no code, examples or usage, a bounded length.
  const fit = [...new Set(out.filter(Boolean))].filter(
    (c) => !minimalDescriptionProblems(String(tool.name), c).some((p) => p.level === 'fail'),
  );
  if (fit.length) return fit.sort((a, b) => a.length - b.length);
  return [`${REVIEW} say in one sentence what ${String(tool.name)} does and when to use it`];
}

export function findableDescriptions(tools: ReadonlyArray<Record<string, unknown>>): Findable {
  const options = tools.map(candidates);
  const choice = tools.map(() => 0);
  const queries = tools.map((tool) =>
    queriesOf(undefined, typeof tool.description === 'string' ? tool.description : ''),
  );
  const describe = () =>
    tools.map((tool, i) => ({ name: String(tool.name), minimal: options[i][choice[i]] ?? '', queries: queries[i] }));
  let figures = selectionFigures(describe());
  for (let round = 0; round < ROUNDS; round++) {
    let changed = false;
    figures.tools.forEach((f, i) => {
      if (f.queries > 0 && f.top1 < LOW_TOP1 && choice[i] + 1 < options[i].length) {
        choice[i]++;
        changed = true;
      }
    });
    if (!changed) break;
    figures = selectionFigures(describe());
  }
  return { descriptions: tools.map((_, i) => options[i][choice[i]] ?? ''), figures };
}
