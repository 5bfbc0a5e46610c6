// The lint as the lint tests run it: the engine's lint with the shipped lint checks, at a fixed "now",
// and the shape of one expected finding of a fixture folder (test/support/lint-expected-*.ts).
import { LINT_CHECKS } from '../../checks/index.js';
import { lintPaths as lintWith } from '../../src/lint/lint.js';

/** The engine's lint with the shipped lint checks. */
export const lintPaths = (paths: string[], options: { cwd: string; now: Date }) =>
  lintWith(paths, { ...options, checks: LINT_CHECKS });

/** Fixed "now" for the 90-day Tool Card rule. */
export const NOW = new Date('2026-11-22T12:00:00Z');

/**
 * `check level file:line code [message-pattern]` — every finding of a fixture folder except info
 * lines. The code is what the finding is; the pattern, where given, pins the data in its message.
 */
export type Expected = [string, 'error' | 'warning', string, string, RegExp?];
