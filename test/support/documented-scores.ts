// The scores docs/checking.md states for the servers the suite installs ("Servers you know, scored"):
// a run must find what the page says, so that the page stays true as the rules change.
import type { Test } from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../../src/generated/report.js';
import { ROOT } from '../helpers.js';

/** The row of the table whose first cell names `server`: its score, mean, and worst tool with its score. */
function documented(server: string): { score: number; mean: number; worst?: string; worstScore: number } {
  const page = readFileSync(join(ROOT, 'docs', 'checking.md'), 'utf8');
  const row = page.split('\n').find((line) => line.startsWith(`| ${server} |`));
  if (!row) throw new Error(`docs/checking.md has no row for ${server}`);
  const cells = row.split('|').map((cell) => cell.trim());
  // "none (all 100)": every tool lost nothing, and which is "worst" is nobody's.
  if (cells[5] === 'none (all 100)') return { score: Number(cells[3]), mean: Number(cells[4]), worstScore: 100 };
  const worst = /^`([^`]+)`, (\d+)$/.exec(cells[5]);
  if (!worst) throw new Error(`docs/checking.md: the worst tool of ${server} is not "\`tool\`, score": ${cells[5]}`);
  return { score: Number(cells[3]), mean: Number(cells[4]), worst: worst[1], worstScore: Number(worst[2]) };
}

/** A default run's score is the one docs/checking.md states for this server. */
export function assertDocumentedScore(t: Test, report: CheckReport, server: string): void {
  const page = documented(server);
  const score = report.score;
  t.same(
    score && {
      score: score.server,
      mean: score.mean,
      ...(page.worst !== undefined ? { worst: score.worst?.tool } : {}),
      worstScore: score.worst?.score,
    },
    page,
    `${server} scores what docs/checking.md says`,
  );
}
