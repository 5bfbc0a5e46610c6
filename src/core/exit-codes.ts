import type { CheckReport } from '../generated/report.js';

/** Exit codes: the public contract (DESIGN.md). */
export const EXIT = { ok: 0, failures: 1, usage: 2, unreachable: 3 } as const;

/** The lowest finding level that fails a run. */
export type FailOn = 'error' | 'warning' | 'never';

/**
 * The exit code a report calls for. Only the CLI sets it; the rule lives here so that a library
 * user's gate and the CLI's agree.
 */
export function exitCodeFor(report: CheckReport, failOn: FailOn = 'error', minScore?: number): number {
  // --min-score is a gate of its own (--fail-on never leaves it standing); a run that judged no text has no
  // score, and nothing to hold to it.
  if (minScore !== undefined && report.score !== undefined && report.score.server < minScore) return EXIT.failures;
  if (failOn === 'never') return EXIT.ok;
  const failing = report.results.some(
    (r) => r.status === 'fail' || r.status === 'error' || (failOn === 'warning' && r.status === 'warn'),
  );
  return failing ? EXIT.failures : EXIT.ok;
}
