import type { Finding, FindingLevel, FindingLocation, TranscriptExchange } from './generated/report.js';
import type { Exchange } from './target/types.js';
import { clip } from './text.js';

export interface FindingExtras {
  hint?: string;
  location?: FindingLocation;
  /** The exchanges that prove the finding. */
  transcript?: Exchange[];
  /** Figures behind the finding (token counts, a level…). */
  data?: Record<string, unknown>;
}

/** Thrown by `skip()`: the check does not apply; the runner records status `skip`. */
export class SkipCheck extends Error {
  override name = 'SkipCheck';
}

/** A message over this size is kept in the report as a preview, so reports stay readable. */
const MAX_MESSAGE_CHARS = 32 * 1024;

function clipMessage(message: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!message) return message;
  const text = JSON.stringify(message);
  if (text.length <= MAX_MESSAGE_CHARS) return message;
  return { truncatedByChecker: true, originalChars: text.length, preview: clip(text, 2000) };
}

export function toTranscript(exchanges: Exchange[]): TranscriptExchange[] {
  return exchanges.map((ex) => {
    const entry: TranscriptExchange = { session: ex.session, method: ex.method, request: clipMessage(ex.request)! };
    if (ex.response) entry.response = clipMessage(ex.response);
    if (ex.noResponse) entry.noResponse = ex.noResponse;
    if (ex.note) entry.note = ex.note;
    entry.durationMs = ex.durationMs;
    return entry;
  });
}

/**
 * Collects the findings of one check. `fail` records at the check's own severity (a SHOULD
 * check's failure is a warning); `warn` and `info` are fixed levels.
 */
export class FindingSink {
  readonly findings: Finding[] = [];

  constructor(private readonly failLevel: FindingLevel) {}

  fail(message: string, extras: FindingExtras = {}): void { this.add(this.failLevel, message, extras); }
  warn(message: string, extras: FindingExtras = {}): void { this.add('warning', message, extras); }
  info(message: string, extras: FindingExtras = {}): void { this.add('info', message, extras); }

  /**
   * A `fail` that records at most `max` findings and then one summary, for checks that test
   * every tool × session and would otherwise bury the report. Call `done()` at the end.
   */
  capped(max: number): { fail: (message: string, extras?: FindingExtras) => void; done: () => void } {
    let count = 0;
    let firstHint: string | undefined;
    return {
      fail: (message, extras = {}) => {
        if (++count <= max) {
          firstHint ??= extras.hint;
          this.fail(message, extras);
        }
      },
      done: () => {
        if (count > max) {
          this.fail(`…and ${count - max} more findings of this check, left out of the report.`, {
            hint: firstHint ?? 'Fix the findings above first; the rest are usually the same fault.',
          });
        }
      },
    };
  }

  skip(reason: string): never {
    throw new SkipCheck(reason);
  }

  private add(level: FindingLevel, message: string, extras: FindingExtras): void {
    const finding: Finding = { level, message };
    if (extras.hint) finding.hint = extras.hint;
    if (extras.location) finding.location = extras.location;
    if (extras.data) finding.data = extras.data;
    if (extras.transcript?.length) finding.transcript = toTranscript(extras.transcript);
    this.findings.push(finding);
  }
}
