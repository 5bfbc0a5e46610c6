/**
 * Ctrl-C or SIGTERM during a live run: exit through the normal path, so that every server process
 * is killed. Only then: anything else (lint, help) keeps the default action, which ends the
 * process at once whatever its main thread is doing.
 */
export function exitOnSignals(): void {
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
}
