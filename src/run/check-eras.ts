// A server checked in every protocol era it speaks: each era's probe, then each era's run
// (src/run/live.ts), overlapping where the server allows, merged into one report.
import type { RunHooks } from '../core/hooks.js';
import type { CheckReport, ReportOptions } from '../generated/report.js';
import type { LeftBehind } from '../model/judge.js';
import type { Era } from '../transport/era.js';
import type { McpSession } from '../transport/session.js';
import { ServerFailedError } from '../transport/session-opening.js';
import type { Target } from '../transport/target.js';
import { latch } from '../util/concurrency.js';
import { CallMemory } from './call-ledger.js';
import type { LiveCheck } from './check.js';
import { deadlineOf, settledBy, withinDeadline } from './deadline.js';
import { discover, type Discovery } from './discovery.js';
import { mergeEraReports, noEraError, probeEras, probeOrder, type EraProbe, type ProtocolChoice } from './eras.js';
import { eraSchedule, type EraSchedule } from './era-schedule.js';
import { checkTarget } from './live.js';
import type { LiveOptions } from './options.js';
import { COSTLY_STARTS_AT_ONCE, costlyStart, heavyServer, type CostlyStart, type Heaviness } from './heavy.js';
import { opensAhead, runPlan, type RunPlan } from './run-plan.js';

/**
 * A live run in every protocol era asked for (and spoken): the eras are found out first, then each
 * is checked on its own, within the run's one time limit; one report. An era starts once the one
 * before it has made its calls before any fetch, so the runs overlap: a server that mostly waits is
 * checked in both eras in about the time of one. Each era's judgement sees the earlier era's sessions as
 * they were (their reads' times), and the first era's idle session waits through the later eras.
 */
export async function checkEras(
  inEra: (era: Era) => Target,
  choice: ProtocolChoice,
  options: LiveOptions,
  extra: {
    checks: readonly LiveCheck[];
    hooks?: RunHooks;
    reportOptions?: ReportOptions;
    maxDurationMs?: number;
    leftOutBecause?: string;
    /**
     * Told why the server is heavy, when it is (src/run/heavy.ts): its run keeps at most three processes alive at once.
     */
    onHeavy?: (why: Heaviness) => void;
    /**
     * Told what its start cost, when the server is costly to start (src/run/heavy.ts): its run starts two processes at
     * a time.
     */
    onCostlyStart?: (cost: CostlyStart) => void;
  },
): Promise<CheckReport> {
  const t0 = performance.now();
  const deadline = deadlineOf(extra.maxDurationMs, t0);
  const targets: Target[] = [];
  const outcomes = probeEras((era) => targets[targets.push(inEra(era)) - 1], choice);
  // No era's sessions start ahead while another era's probe has not answered: its start beside them
  // (ten server processes on two cores) would be late for the checker's doing.
  const probed = Promise.allSettled(outcomes);
  // How the eras share the run's time (src/run/era-schedule.ts), from what the server showed: heavy
  // or not, said by the first probe that answers (the eras' probes are one server); large or not, by
  // the first era's listing. Nothing below decides it again.
  let heavy: boolean | undefined;
  let tools: number | undefined;
  const scheduleBy = (p: EraProbe): EraSchedule => {
    if (heavy === undefined) {
      const why = heavyServer(p.session, options.sessions);
      if (why) extra.onHeavy?.(why);
      heavy = why !== undefined;
      // A start that costs CPU: starts wait for one another (every era's target shares the slots).
      const costly = heavy ? undefined : costlyStart(p.session, options.sessions);
      if (costly) {
        p.target.startSlots?.restrict(COSTLY_STARTS_AT_ONCE);
        extra.onCostlyStart?.(costly);
      }
    }
    return schedule();
  };
  const schedule = () => eraSchedule({ heavy: heavy === true, ...(tools !== undefined ? { tools } : {}) });
  // What each era's run does, from the options, once (every era's target is of one kind: stdio or HTTP).
  let plan: RunPlan | undefined;
  const planFor = (target: Target) => (plan ??= runPlan(extra.checks, options, target.cheapSessions === true));
  // An era that answered its probe starts its sessions now (its server is installed and starts):
  // they are warm when its run starts, which is not until the era before has made its first calls.
  for (const outcome of outcomes)
    void outcome.then(
      async (p) => (
        await probed,
        p.session &&
          !p.session.closed &&
          scheduleBy(p).warmAhead &&
          p.target.reserve(opensAhead(planFor(p.target), 'first'))
      ),
      () => {},
    );
  /** The eras whose probe ended before their turn (a heavy server's), to start again then. */
  const probeEnded = new Set<number>();
  const endProbe = async (session: McpSession | undefined) => {
    if (!session || session.closed) return;
    session.relabel('first probe');
    await session.close();
  };
  const probes: EraProbe[] = [];
  const running: Array<Promise<{ era: Era; report: CheckReport }>> = [];
  /**
   * When each era's run is quiet: its checks and its exploration's traffic are done (its shrinking and judgement may go
   * on).
   */
  const quiets: Array<Promise<unknown>> = [];
  let prior: Promise<LeftBehind | undefined> | undefined;
  // The first era's idle session waits through the later eras' runs: opened once they are done.
  const { opened: laterEras, open: laterErasDone } = latch();
  // A tool that gave no answer in one era is not waited for in the next; a call that ran is not made again.
  const memory = new CallMemory();
  // A later era's probe lists its server while the era before runs, once that one's listing shows a
  // server small enough for two eras' listings to be held at once (as their runs overlap).
  const early = new Map<number, Promise<{ discovery: Discovery; session: McpSession } | undefined>>();
  const discoverEarly = (i: number) => {
    const outcome = outcomes[i];
    if (!schedule().laterEraListsEarly || outcome === undefined || early.has(i)) return;
    const listing = outcome.then((p) => (p.session ? discover(p.target, undefined, p.session) : undefined));
    listing.catch(() => {});
    early.set(i, listing);
  };
  try {
    for (const [i, outcome] of outcomes.entries()) {
      // Once an era is checked, the run's deadline ends the wait for the others (said, not thrown).
      const probe = running.length ? await settledBy(outcome, deadline) : await withinDeadline(outcome, deadline);
      if (!probe || (probe.session && deadline && performance.now() >= deadline.at)) {
        // The run's time went to the eras before it: this one is said, not checked.
        probes.push({
          era: probeOrder(choice)[i],
          target: targets[i],
          why: `the run reached --max-duration (${deadline!.seconds} s) before this era`,
        });
        await targets[i].dispose();
        continue;
      }
      probes.push(probe);
      // An era the server failed to open (HTTP 5xx, 429) is not an era it does not speak: no
      // verdict on the others alone ("yes" for one era would hide it). The run cannot check it now.
      if (probe.error instanceof ServerFailedError) throw probe.error;
      if (!probe.session) continue;
      // A heavy server's later eras wait for this one: their probes end now (a process each, alive for nothing
      // meanwhile).
      if (scheduleBy(probe).laterProbesRestart) {
        for (let j = i + 1; j < outcomes.length; j++) {
          if (probeEnded.has(j)) continue;
          probeEnded.add(j);
          await endProbe((await settledBy(outcomes[j], deadline))?.session);
        }
      }
      // (One the run's deadline kept from ending then ends now.)
      if (probeEnded.has(i)) await endProbe(probe.session);
      // The same server's grants and refusals carry over from one era's run to the next: a grant of
      // the earlier era's sessions that a later session can use was inherited (criterion 8).
      // Every era has its idle session: a grant that lapses with idleness would otherwise be caught
      // in a later era only when a slow run happened to leave one of its grants idle long enough
      // (1 of 10 runs beside busy loops). The first era's waits through the later eras' runs.
      let tellLeft!: (left: LeftBehind | undefined) => void;
      const left = new Promise<LeftBehind | undefined>((resolve) => (tellLeft = resolve));
      const { opened: quieted, open: quiet } = latch();
      const { opened: overlapAllowed, open: allowOverlap } = latch();
      // A run beside the one before shares only what keeps calls harmless; one after it, all it learnt.
      const eraMemory =
        running.length && schedule().laterEraLearns === 'what-keeps-calls-harmless' ? memory.sharingHarmOnly() : memory;
      const discovered = early.get(i)?.then((d) => d ?? discover(probe.target, undefined, probe.session));
      const report = checkTarget(probe.target, planFor(probe.target), {
        hooks: extra.hooks,
        reportOptions: extra.reportOptions,
        maxDurationMs: extra.maxDurationMs,
        memory: eraMemory,
        ...(probeEnded.has(i) ? {} : { probe: probe.session }),
        since: t0,
        ...(prior ? { prior } : {}),
        // The first era's idle session waits through the later eras' runs, unless they run after it.
        ...(running.length || !schedule().idleThroughLaterEras ? {} : { idleUntil: laterEras }),
        ...(discovered ? { discovered } : {}),
        // The first era's listing says whether the server is large.
        schedule: (listed) => {
          tools ??= listed;
          return schedule();
        },
        onDiscovered: () => discoverEarly(i + 1),
        onLeftBehind: (l) => {
          tellLeft(l);
          quiet();
        },
        onOverlap: allowOverlap,
      });
      // A run that ends without being quiet (cut, or its server lost) leaves nothing behind.
      void report.then(
        () => tellLeft(undefined),
        () => tellLeft(undefined),
      );
      const checked = report.then((r) => ({ era: probe.era, report: r }));
      // Its failure is thrown where every era is awaited, not meanwhile as unhandled.
      checked.catch(() => {});
      running.push(checked);
      quiets.push(Promise.race([quieted, report]).catch(() => {}));
      await (schedule().laterEraStarts === 'after-end' ? report : Promise.race([overlapAllowed, report])).catch(
        () => {},
      );
      prior = left;
    }
    // The idle session waits for the later eras' traffic, not for their shrinking (replays of their own).
    void Promise.all(quiets.slice(1)).then(laterErasDone);
    const reports = await Promise.all(running);
    if (!reports.length) throw noEraError(probes);
    return mergeEraReports(reports, probes, choice, performance.now() - t0, extra.leftOutBecause);
  } catch (err) {
    await Promise.all(targets.map((t) => t.dispose()));
    await Promise.allSettled(running);
    throw err;
  }
}
