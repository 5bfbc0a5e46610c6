/** What an interrupted run kept after all (a fleet's --out-dir), said instead of "no report was written". */
let kept: string | undefined;
export function keptOnInterrupt(text: string): void {
  kept = text;
}

/**
 * Ctrl-C or SIGTERM during a live run: exit through the normal path, so that every server process
 * is killed. Only then: anything else (lint, help) keeps the default action, which ends the
 * process at once whatever its main thread is doing.
 */
export function exitOnSignals(): void {
  // A progress line on a terminal is erased, and the run said to be interrupted, before the exit.
  const interrupted = (code: number) => () => {
    if (process.stderr.isTTY) process.stderr.write('\r\u001b[K');
    process.stderr.write(
      `mcp-pd-check: interrupted (${code === 130 ? 'Ctrl-C' : 'SIGTERM'}); ${kept ?? 'no report was written'}, and the servers it started were stopped\n`,
    );
    process.exit(code);
  };
  process.once('SIGINT', interrupted(130));
  process.once('SIGTERM', interrupted(143));
}
