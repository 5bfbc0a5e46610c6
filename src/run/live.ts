import type { RunHooks } from '../core/hooks.js';
import { buildReport } from '../core/build-report.js';
import type { CheckReport, ReportOptions } from '../generated/report.js';
import type { ExploreDeps, Exploration } from '../model/explore/explore.js';
import { SPARE, TargetUnavailableError, type Target } from '../transport/target.js';
import { type McpSession } from '../transport/session.js';
import { eraSchedule, type EraSchedule } from './era-schedule.js';
import { deadlineOf, withinDeadline } from './deadline.js';
import { exploreIfAsked, summaryOf } from './exploration.js';
import { CheckRuns } from './checks-phase.js';
import { fetchAllDescriptions } from './descriptions.js';
import { discover, type Discovery } from './discovery.js';
import { judgeChecks, judgeRun } from './judgement.js';
import type { LeftBehind } from '../model/judge.js';
import type { PhaseId } from './phases.js';
import { Run, SESSION_CRITERIA } from './run.js';
import { type CallMemory } from './call-ledger.js';
import { callOthersUnfetched, callReadOnlyUnfetched } from './unfetched-calls.js';
import { verdictOf } from './verdict.js';
import { latch } from '../util/concurrency.js';
import { opensAhead, type RunPlan } from './run-plan.js';
import { SharedSession } from './shared-session.js';

/**
 * The core of a live run, with no printing and no exit codes: its plan's phases (src/run/run-plan.ts)
 * in order over one Run, then the verdict and the report. The registry is passed in, never imported
 * here. Throws TargetUnavailableError when the target cannot be started or reached.
 */
export async function checkTarget(
  target: Target,
  plan: RunPlan,
  extra: {
    hooks?: RunHooks;
    reportOptions?: ReportOptions;
    maxDurationMs?: number;
    probe?: McpSession;
    since?: number;
    /**
     * What the run of another protocol era against the same server leaves behind (its sessions'
     * grants, its refusals), once it is quiet: this run's judgement waits for it (the runs overlap).
     */
    prior?: Promise<LeftBehind | undefined>;
    /**
     * Told when another era's run may start beside this one: once this one has made its calls
     * before any fetch (started earlier, the two runs' exploration and shrinking overlapped more,
     * and the shrinking of grants that expire with time failed under load in CI). A run of a large
     * server tells it only when quiet, so that two eras' listings are never held at once.
     */
    onOverlap?: () => void;
    /**
     * Told what this run leaves behind (its checks' sessions, judged) as soon as it is quiet: the
     * checks and the exploration are done but for the idle session's wait, which a later era's run
     * may then fill.
     */
    onLeftBehind?: (left: LeftBehind) => void;
    /** The idle session makes its last call once this settles too (a later era's run is done). */
    idleUntil?: Promise<unknown>;
    /** What the calls of the run's other protocol eras taught (shared by all of them). */
    memory?: CallMemory;
    /** The probe's discovery, when it was started before this run (beside the era before). */
    discovered?: Promise<{ discovery: Discovery; session: McpSession }>;
    /** Told what the probe found, before any other phase: a later era's probe may list its server meanwhile. */
    onDiscovered?: (discovery: Discovery) => void;
    /**
     * How the run shares its time with the other eras' (src/run/era-schedule.ts), given the number of
     * tools the probe listed; told before `onDiscovered`. Default: a server's own, not heavy.
     */
    schedule?: (tools: number) => EraSchedule;
  },
): Promise<CheckReport> {
  const startedAt = new Date();
  const t0 = performance.now();
  const deadline = deadlineOf(extra.maxDurationMs, extra.since ?? t0);
  const { checks, phases } = plan;
  // When the run's time is up, every session ends at once: requests in flight are answered as
  // closed and no session starts, so nothing waits for a slow server. A moment after the checks'
  // own limits, so that each check in flight is said to be cut by the time, not by a closed session.
  const cut =
    deadline &&
    setTimeout(() => void target.dispose(), Math.max(0, deadline.at - performance.now()) + CUT_AFTER_DEADLINE_MS);
  try {
    // Sessions the checks will need start warming while the probe runs, and so does what the
    // checks will load (a tokenizer, schemas): both off the critical path.
    // The exploration's only once the server lists something to explore (most servers do not).
    target.reserve((extra.probe ? 0 : 1) + opensAhead(plan, 'first'));
    for (const check of checks)
      void check.preload?.({ cheapSessions: target.cheapSessions === true, era: target.era }).catch(() => {});
    const ticker = waitTicker(extra.hooks);
    // A server that goes away mid-run gets no verdict (DESIGN, "A pass is a proof"): the run ends
    // at once, and what it saw is not judged.
    target.onLost?.(() => void target.dispose());
    const found = extra.discovered ?? discover(target, ticker, extra.probe);
    if (extra.discovered) ticker();
    const { discovery, session } = await withinDeadline(found, deadline);
    throwIfLost(target);
    const schedule =
      extra.schedule?.(discovery.tools.length) ?? eraSchedule({ heavy: false, tools: discovery.tools.length });
    extra.onDiscovered?.(discovery);
    // What the probe learnt: a resource to explore, a tool form to check (each a session or more of its own).
    if (schedule.warmAhead && (discovery.descriptionsResource || discovery.descriptionsTool))
      target.reserve(opensAhead(plan, 'listed', discovery.descriptionsTool !== undefined));
    try {
      const shared = plan.turns ? new SharedSession(plan.turns) : undefined;
      const run = new Run(target, plan, session, discovery, extra.memory, shared);
      // The other era's sessions, once its run is quiet (judging waits for them, never the traffic).
      let prior: LeftBehind | undefined;
      const priorKnown = (extra.prior ?? Promise.resolve(undefined)).then((p) => void (prior = p));
      // A later era may start once this one made its calls before any fetch, or only once it is quiet.
      const overlaps = schedule.laterEraStarts === 'after-first-calls';
      let overlapSaid = false;
      const runs = new CheckRuns(run, checks, extra.hooks, deadline);
      // The exploration is judged once the checks and their work at the end are done.
      const { opened: checksOver, open: endOfChecks } = latch();
      const deps: ExploreDeps = {
        target: schedule.explorationAfterChecks ? openingAfter(target, checksOver) : target,
        marks: run.marks,
        get resource() {
          return run.descriptions?.resource?.uri;
        },
        call: (s, tool) => run.door.call(s, tool, { by: 'exploration' }),
        callable: (tool, fetched) => !('skip' in run.door.plan(tool, fetched)),
        readThroughTool: (s, tool, names) => run.door.readThroughTool(s, tool, names),
        get prior() {
          return prior;
        },
        applies: (brk) => run.applies(brk),
      };
      let exploration: Exploration | undefined;
      const checksDone = runs.runChecks();
      // Quiet: the checks are over and the exploration only waits in its idle session. Their
      // sessions are judged then, and what they leave behind is told at once.
      const { opened: explorationBusy, open: explorationBusyOver } = latch();
      if (!phases.some((p) => p.id === 'exploration')) explorationBusyOver();
      const judgement = Promise.all([checksOver, explorationBusy, priorKnown]).then(() => {
        const judged = judgeChecks(run, deps);
        extra.onLeftBehind?.(judged.leftBehind);
        extra.onOverlap?.();
        return judged;
      });
      // Awaited by the judgement phase; a run cut before it must not leave it unhandled.
      judgement.catch(() => {});
      const work: Record<PhaseId, () => Promise<unknown>> = {
        probe: async () => {},
        'unfetched-read-only': () => callReadOnlyUnfetched(run),
        descriptions: () => fetchAllDescriptions(run),
        'unfetched-others': () => callOthersUnfetched(run),
        checks: () => checksDone,
        // The shared session ends then: nothing uses it later (over stdio it is a process, alive through the idle wait
        // for nothing).
        // Where the exploration starts after the checks (a heavy server), their sessions end first.
        'end-of-checks': () =>
          runs
            .runDeferred()
            .then(() => run.shared?.close())
            .then(() => (schedule.explorationAfterChecks ? runs.closeSessions() : undefined))
            .finally(endOfChecks),
        exploration: async () => {
          try {
            // The idle session's last call comes when everything else of the run is done (and any later era's).
            const idleUntil = Promise.all([checksOver, explorationBusy, extra.idleUntil]);
            exploration = await exploreIfAsked(
              deps,
              run,
              deadline,
              Promise.all([checksOver, priorKnown]),
              explorationBusyOver,
              idleUntil,
              extra.since ?? t0,
              checksOver,
            );
          } finally {
            explorationBusyOver();
          }
        },
        traffic: async () => {
          // The checks kept sessions for their work at the end: those close now.
          await runs.closeSessions();
          await runs.runTrafficChecks();
        },
        judgement: async () => judgeRun(run, deps, (id) => runs.sinkOf(id), await judgement, exploration, deadline),
      };
      // Each phase in turn; one marked `alongside` starts with its partner and is awaited in its own place.
      const started = new Map<PhaseId, Promise<unknown>>();
      const start = (id: PhaseId) => started.get(id) ?? started.set(id, work[id]()).get(id)!;
      const late = () => deadline !== undefined && performance.now() >= deadline.at;
      for (const phase of phases) {
        if (overlaps && !overlapSaid && phase.id !== 'probe' && phase.id !== 'unfetched-read-only') {
          overlapSaid = true;
          extra.onOverlap?.();
        }
        if (late() && phase.onlySends) continue;
        for (const partner of phases.filter((p) => p.alongside === phase.id)) void start(partner.id).catch(() => {});
        const phaseStarted = performance.now();
        try {
          await start(phase.id);
        } catch (err) {
          // A server that went away ends the run (said below); one cut by the run's time: what it had done stands.
          throwIfLost(target);
          if (!late()) throw err;
        } finally {
          // The calls before any fetch are the clean session's checks' work, made before the checks start.
          if (phase.id.startsWith('unfetched-')) runs.creditCleanSessionWork(performance.now() - phaseStarted);
        }
      }
      endOfChecks();
      // Checks still waiting when the run's time was up end by then too (their own limits).
      await checksDone;
      throwIfLost(target);
      // 2026-07-28 over HTTP has no session: a server that gates no call there is not wrong (DESIGN, "Two protocol
      // eras").
      // (only a server that serves descriptions: one that serves none has nothing on demand, and its criteria are not
      // testable)
      const sessionless = run.sessionless();
      const results = runs.results(sessionless ? SESSION_CRITERIA : []);
      const verdict = verdictOf(
        checks,
        results,
        discovery,
        run.door.ledger,
        run.descriptions?.resource,
        run.tools.barredTools(),
      );
      return buildReport({
        verdict,
        target: {
          kind: target.kind,
          ...(target.kind === 'stdio' ? { command: target.describe } : { url: target.describe }),
          ...(target.launch && Object.keys(target.launch).length ? { launch: target.launch } : {}),
          ...(target.transport ? { transport: target.transport() } : {}),
          ...(discovery.serverInfo ? { serverInfo: discovery.serverInfo } : {}),
          ...(discovery.protocolVersion ? { protocolVersion: discovery.protocolVersion } : {}),
        },
        startedAt,
        durationMs: performance.now() - t0,
        results,
        tools: discovery.toolNames,
        options: extra.reportOptions,
        ...(exploration ? { exploration: summaryOf(exploration, plan.exploration.seedFrom) } : {}),
      });
    } finally {
      await session.close();
    }
  } finally {
    clearTimeout(cut);
    await target.dispose();
  }
}

/**
 * The target as the exploration of a heavy server's run sees it: its sessions start once `after`
 * settles, when they are opened, never ahead (a replay's spares beside it would be processes more).
 */
function openingAfter(target: Target, after: Promise<unknown>): ExploreDeps['target'] {
  return {
    open: (label, options) => after.then(() => target.open(label, options)),
    reserve: () => {},
    sessionsStarted: () => target.sessionsStarted(),
    ...(target.cheapSessions !== undefined ? { cheapSessions: target.cheapSessions } : {}),
  };
}

/** Ends the run with TargetUnavailableError (exit 3) when a session's server went away during it. */
function throwIfLost(target: Target): void {
  const lost = target.lostSession?.();
  if (!lost?.lost) return;
  const where = `${lost.label === SPARE ? 'a session started ahead' : `session ${lost.label}`}${lost.lost.after ? `, after ${lost.lost.after}` : ''}`;
  throw new TargetUnavailableError(
    `the server went away during the run (${where}), so no verdict is given: ${lost.lost.reason}`,
  );
}

/** How long after the run's deadline its sessions are closed (see `cut` in checkTarget). */
const CUT_AFTER_DEADLINE_MS = 50;

/** Tells the hooks, every second, how long the first session has been starting; the returned function stops it. */
function waitTicker(hooks: RunHooks | undefined): () => void {
  if (!hooks?.onStartWait) return () => {};
  const started = performance.now();
  hooks.onStartWait(0);
  const timer = setInterval(() => hooks.onStartWait!(Math.floor((performance.now() - started) / 1000)), 1000);
  return () => clearInterval(timer);
}
