import type { LiveCheck } from './check.js';
import type { LiveOptions } from './context.js';
import { discover } from './discovery.js';
import type { CheckReport, ReportOptions } from './generated/report.js';
import { buildReport } from './report.js';
import { RunState, type ResolvedResource } from './pd/run-state.js';
import { verdictOf } from './verdict.js';
import { plannedOpens, runLiveChecks, type RunDeadline, type RunHooks } from './runner.js';
import { TargetUnavailableError, type Target } from './target/target.js';

/**
 * The core of a live run, with no printing and no exit codes: probe the target, run the given
 * checks (the registry is passed in, never imported here), return the report. Throws
 * TargetUnavailableError when the target cannot be started or reached.
 */
export async function checkTarget(
  target: Target,
  options: LiveOptions,
  extra: { checks: readonly LiveCheck[]; hooks?: RunHooks; reportOptions?: ReportOptions; maxDurationMs?: number },
): Promise<CheckReport> {
  const startedAt = new Date();
  const t0 = performance.now();
  const deadline: RunDeadline | undefined = extra.maxDurationMs === undefined ? undefined
    : { at: t0 + extra.maxDurationMs, seconds: Math.round(extra.maxDurationMs / 100) / 10 };
  const checks = extra.checks;
  try {
    // Sessions the checks will need start warming while the probe runs, and so does what the
    // checks will load (a tokenizer, schemas): both off the critical path.
    target.reserve(1 + plannedOpens(checks, options)); // the probe, then the checks' own
    for (const check of checks) void check.preload?.().catch(() => {});
    const ticker = waitTicker(extra.hooks);
    const { discovery, session } = await withinDeadline(discover(target, ticker), deadline);
    try {
      const run = new RunState(discovery, session, { safeCalls: options.safeCalls, allowDestructive: options.allowDestructive ?? false });
      const results = await runLiveChecks(checks, target, discovery, session, options, run, extra.hooks, deadline);
      const verdict = verdictOf(checks, results, discovery, run.calls, await resolvedIfKnown(run));
      return buildReport({
        verdict,
        target: {
          kind: target.kind,
          ...(target.kind === 'stdio' ? { command: target.describe } : { url: target.describe }),
          ...(target.transport ? { transport: target.transport() } : {}),
          ...(discovery.serverInfo ? { serverInfo: discovery.serverInfo } : {}),
          ...(discovery.protocolVersion ? { protocolVersion: discovery.protocolVersion } : {}),
        },
        startedAt,
        durationMs: performance.now() - t0,
        results,
        options: extra.reportOptions,
      });
    } finally {
      await session.close();
    }
  } finally {
    await target.dispose();
  }
}

/** Tells the hooks, every second, how long the first session has been starting; the returned function stops it. */
function waitTicker(hooks: RunHooks | undefined): () => void {
  if (!hooks?.onStartWait) return () => {};
  const started = performance.now();
  hooks.onStartWait(0);
  const timer = setInterval(() => hooks.onStartWait!(Math.floor((performance.now() - started) / 1000)), 1000);
  return () => clearInterval(timer);
}

/** The probe must end within the run's time too; a server too slow for it is unreachable in effect. */
async function withinDeadline<T>(work: Promise<T>, deadline: RunDeadline | undefined): Promise<T> {
  if (!deadline) return work;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TargetUnavailableError(`the server did not finish answering the first session's requests within --max-duration (${deadline.seconds} s)`)),
      Math.max(0, deadline.at - performance.now()));
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** The resource the checks found, when some check looked for it (the verdict says which was used). */
async function resolvedIfKnown(run: RunState): Promise<ResolvedResource | undefined> {
  return run.resolvedSoFar();
}
