// The score in words, once for every reporter: "94/100 for what the model reads (the mean of 7
// tools 97, the worst, search_notes, 90)". How it is counted: docs/quality.md, "The score".
import type { QualityScore } from '../generated/report.js';
import { plural } from '../util/text.js';

/** The score's sentence; with `min`, whether the run's --min-score holds. */
export function scoreSentence(score: QualityScore, min?: number): string {
  const tools = score.tools.length + score.perfect.length;
  const parts = [
    tools ? `the mean of ${plural(tools, 'tool')} ${score.mean}` : '',
    score.worst && tools > 1 && score.worst.score < score.mean
      ? `the worst, ${score.worst.tool}, ${score.worst.score}`
      : '',
    score.serverProblems.length ? `${plural(score.serverProblems.length, 'problem')} of the server's own texts` : '',
  ].filter(Boolean);
  const gate =
    min === undefined ? '' : score.server < min ? ` — below --min-score ${min}` : ` (--min-score ${min} met)`;
  return `${score.server}/100 for what the model reads${parts.length ? ` (${parts.join('; ')})` : ''}${gate}`;
}

/** The worse a score, the louder: green from 90, yellow from 70, red below. */
export function scoreGrade(score: number): 'good' | 'fair' | 'poor' {
  return score >= 90 ? 'good' : score >= 70 ? 'fair' : 'poor';
}
