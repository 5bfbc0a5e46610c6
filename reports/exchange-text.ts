import type { Finding, TranscriptExchange } from '../src/generated/report.js';
import { inlineJson } from '../src/util/text.js';

/**
 * What stands for the answer of an exchange that has none: the progress it reported (a call that reached its tool), or
 * why nothing came.
 */
export function noAnswerText(ex: TranscriptExchange): string {
  const why = ex.note ?? ex.noResponse ?? '';
  return ex.progress
    ? `progress ${inlineJson((ex.progress as { params?: unknown }).params ?? {}, 120)}; ${why}`
    : `no response: ${why}`;
}

/** Exchanges as pretty-printed JSON for a code block; `mark` starts the → / ← lines (e.g. '// '). */
export function exchangesAsText(transcript: TranscriptExchange[], mark = ''): string {
  return transcript
    .map(
      (ex) =>
        `${mark}${ex.session} → ${ex.method}\n${JSON.stringify((ex.request as { params?: unknown }).params ?? {}, null, 2)}\n${mark}${ex.session} ←\n${ex.response ? JSON.stringify(ex.response, null, 2) : noAnswerText(ex)}`,
    )
    .join('\n\n');
}

/** A finding's shortest sequence as lines: a heading with the seed that replays it, then the numbered steps. */
export function sequenceLines(f: Finding): string[] {
  if (!f.sequence) return [];
  return [`shortest sequence that breaks it (replay with --seed ${f.sequence.seed}):`, ...f.sequence.steps];
}
