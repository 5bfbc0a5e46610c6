import type { LiveCheck } from './check.js';
import type { LiveOptions } from './context.js';
import { DEFAULT_EXPLORE } from '../model/explore/defaults.js';
import { discover } from './discovery.js';
import type { CheckReport, ExplorationSummary, ReportOptions } from '../generated/report.js';
import { buildReport } from './build-report.js';
import { RunState, type ResolvedResource } from '../pd/run-state.js';
import { verdictOf } from './verdict.js';
import { judge } from '../model/judge.js';
import { mergeExploration, mergeJudgement } from '../model/merge.js';
import { explore, laboratory, MAX_SHRUNK, shortest, type Exploration, type Found, type Lab } from '../model/explore/explore.js';
import { historyOf } from '../model/explore/history.js';
import type { RuleBreak } from '../model/world.js';
import type { McpSession } from '../transport/session.js';
import type { CheckResult } from '../generated/report.js';
import { freshSeed } from '../model/explore/random.js';
import { plannedOpens, runLiveChecks, type RunDeadline, type RunHooks } from './runner.js';
import { TargetUnavailableError, type Target } from '../transport/target.js';

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
    target.reserve(1 + plannedOpens(checks, options)); // the probe, then the run's clean session and the checks' own
    for (const check of checks) void check.preload?.().catch(() => {});
    const ticker = waitTicker(extra.hooks);
    const { discovery, session } = await withinDeadline(discover(target, ticker), deadline);
    try {
      const run = new RunState(discovery, session, { safeCalls: options.safeCalls, allowDestructive: options.allowDestructive ?? false }, (label) => target.open(label));
      let exploration: Exploration | undefined;
      const results = await runLiveChecks(checks, target, discovery, session, options, run, extra.hooks, deadline, {
        // Before the checks that read the whole run's traffic: they read the exploration's too.
        beforeLast: async () => {
          exploration = await exploreIfAsked(checks, run, target, options, deadline);
        },
        afterChecks: async (byId) => {
          // Every exchange of the run, whichever check made it, judged by the model (DESIGN, "The model").
          const world = run.world(await run.resolvedSoFar());
          const own = target.sessionsStarted().filter((s) => s.exploredFrom !== 0);
          const judgement = judge(world, own, (s) => s.ownExchanges);
          mergeJudgement(checks, byId, judgement);
          if (!exploration) return;
          mergeExploration(checks, byId, exploration.found);
          // A rule the checks broke and the exploration did not: shrunk from the checks' own sessions.
          const until = deadline ? deadline.at - 1000 : Number.POSITIVE_INFINITY;
          const lab = await laboratory(run, target, world, exploration.seed, until);
          const shrunk = lab ? await shortestOfHistory(lab, judgement.breaks, own, byId, MAX_SHRUNK - exploration.found.length) : { found: [], replays: 0 };
          exploration.replays += shrunk.replays;
          exploration.found.push(...shrunk.found);
          mergeExploration(checks, byId, shrunk.found);
        },
      });
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
        ...(exploration ? { exploration: summaryOf(exploration) } : {}),
      });
    } finally {
      await session.close();
    }
  } finally {
    await target.dispose();
  }
}

/**
 * The exploration, when the run includes a criterion it could break and a budget: after the
 * checks (their findings come first), within the run's time.
 */
async function exploreIfAsked(checks: readonly LiveCheck[], run: RunState, target: Target, options: LiveOptions, deadline: RunDeadline | undefined): Promise<Exploration | undefined> {
  const budget = options.explore ?? DEFAULT_EXPLORE;
  if (budget <= 0 || !checks.some((c) => c.spec.criterion !== undefined)) return undefined;
  const seed = options.seed ?? freshSeed();
  const until = deadline ? deadline.at - 1000 : Number.POSITIVE_INFINITY;
  try {
    return await explore(run, target, run.world(await run.resolvedSoFar()), { budget, seed, sessions: target.cheapSessions ? 'cheap' : 'process', until });
  } catch (err) {
    // A server that cannot open more sessions is the checks' finding; the exploration says it stopped.
    if (err instanceof TargetUnavailableError) return { seed, budget, requests: 0, sessions: 0, replays: 0, found: [], skipped: `a session could not be opened: ${err.message}` };
    throw err;
  }
}

/**
 * Shortest sequences for rules the checks broke and the exploration did not shrink (one per
 * criterion and code, at most `room`), replayed from the checks' own histories.
 */
async function shortestOfHistory(lab: Lab, breaks: readonly RuleBreak[], sessions: readonly McpSession[], results: Map<string, CheckResult>, room: number): Promise<{ found: Found[]; replays: number }> {
  const out: { found: Found[]; replays: number } = { found: [], replays: 0 };
  const done = new Set<string>();
  for (const brk of breaks) {
    if (out.found.length >= room || brk.level === 'info' || performance.now() >= lab.until) break;
    const key = `${brk.check}\u0000${brk.code}`;
    const result = results.get(brk.check);
    if (done.has(key) || !result || result.findings.some((f) => f.code === brk.code && f.sequence)) continue;
    done.add(key);
    const moves = historyOf(brk, sessions);
    if (!moves) continue;
    // The very rule the finding names: its sequence goes beside it.
    const { found, replays } = await shortest(lab, moves, brk, [], undefined, true);
    out.replays += replays;
    if (found) {
      out.found.push(found);
      done.add(`${found.check}\u0000${found.code}`);
    }
  }
  return out;
}

function summaryOf(e: Exploration): ExplorationSummary {
  return { seed: e.seed, budget: e.budget, requests: e.requests, sessions: e.sessions, replays: e.replays, found: e.found.length, ...(e.skipped ? { skipped: e.skipped } : {}) };
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
    timer = setTimeout(() => reject(new TargetUnavailableError(`the server did not finish answering the first session's requests within the run's time limit, --max-duration (${deadline.seconds} s)`)),
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
