// The text report's score line (docs/quality.md, "The score"): under the verdict of a live run, on
// its own in a lint; with --verbose, each tool's score and what took it down.
import type { ChalkInstance } from 'chalk';
import type { CheckReport } from '../src/generated/report.js';
import { scoreGrade, scoreSentence } from '../src/core/score-sentence.js';
import { cutShort } from '../src/core/findings.js';
import { isScored } from '../src/core/score.js';
import { listing, sanitizeLine } from '../src/util/text.js';

const PAINT = {
  good: (c: ChalkInstance) => c.green,
  fair: (c: ChalkInstance) => c.yellow,
  poor: (c: ChalkInstance) => c.red,
};

export function renderScore(report: CheckReport, c: ChalkInstance, verbose: boolean): string[] {
  const score = report.score;
  if (!score) {
    // Said where the score would be: the run's time limit, not the texts, left it out.
    const cut = new Set(report.results.filter((r) => isScored(r) && cutShort(r)).map((r) => r.id));
    if (!cut.size) return [];
    const why = `not computed: the run reached --max-duration before ${cut.size} of the rules that judge the texts`;
    return report.verdict ? [c.gray(`  score: ${why}`)] : ['', c.bold(`SCORE: ${why}`)];
  }
  const paint = PAINT[scoreGrade(score.server)](c);
  const sentence = sanitizeLine(scoreSentence(score, report.options?.minScore));
  const lines = report.verdict ? [paint(`  score: ${sentence}`)] : ['', paint.bold(`SCORE: ${sentence}`)];
  if (verbose) {
    for (const t of score.tools)
      lines.push(
        c.gray(
          `    ${sanitizeLine(t.tool)} ${t.score}${t.selection !== undefined ? ` (text ${t.text}, found ${t.selection})` : ''}${t.problems.length ? `: ${t.problems.map((p) => `${p.check} ${p.code}`).join(', ')}` : ''}`,
        ),
      );
    if (score.perfect.length)
      lines.push(
        c.gray(
          `    100: ${sanitizeLine(
            listing(
              score.perfect.map((name) => `'${name}'`),
              12,
            ),
          )}`,
        ),
      );
  }
  return lines;
}
