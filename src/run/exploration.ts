// The run's exploration (src/model/explore/), started beside the checks, within the run's time, and
// its summary for the report.
import type { RunDeadline } from '../core/execute.js';
import type { ExplorationSummary } from '../generated/report.js';
import { explore, type ExploreDeps, type Exploration } from '../model/explore/explore.js';
import { digestSeed } from '../model/explore/random.js';
import { TargetUnavailableError } from '../transport/types.js';
import { thrownAt } from '../util/stack.js';
import type { ExplorationPlan } from './options.js';
import type { Run } from './run.js';

/** The exploration, after the checks (their findings come first), within the run's time. */
/**
 * `checksOver`: settles once the checks and their work at the end are done. Where the run shares
 * its sessions (over stdio), the idle session is then the probe, which none of them uses any more:
 * a server process less.
 */
export async function exploreIfAsked(
  deps: ExploreDeps,
  run: Run,
  deadline: RunDeadline | undefined,
  judgeAfter: Promise<unknown>,
  onBusyDone: () => void,
  idleUntil: Promise<unknown>,
  since: number,
  checksOver: Promise<unknown>,
): Promise<Exploration> {
  const { budget, idleMs } = run.plan.exploration;
  const seed = run.plan.exploration.seed ?? digestSeed(JSON.stringify(run.discovery.tools));
  const until = deadline ? deadline.at - 1000 : Number.POSITIVE_INFINITY;
  // With a deadline, the idle wait ends by it too.
  const idleEnd = deadline
    ? Promise.race([
        idleUntil,
        new Promise((resolve) => setTimeout(resolve, Math.max(0, until - performance.now())).unref?.()),
      ])
    : idleUntil;
  try {
    return await explore(
      deps,
      run.world,
      {
        budget,
        seed,
        since,
        sessions: run.target.cheapSessions ? 'cheap' : 'process',
        until,
        onBusyDone,
        idle: {
          minMs: idleMs,
          until: idleEnd,
          ...(run.shared ? { borrow: () => checksOver.then(() => run.probe) } : {}),
        },
      },
      judgeAfter,
    );
  } catch (err) {
    // A server that cannot open more sessions is the checks' finding; the exploration says it stopped.
    if (err instanceof TargetUnavailableError)
      return {
        seed,
        budget,
        requests: 0,
        sessions: 0,
        replays: 0,
        found: [],
        skipped: `a session could not be opened: ${err.message}`,
      };
    // A fault of the checker's own stops the exploration, not the run: the checks' report is still written, and says
    // it.
    const at = thrownAt(err);
    return {
      seed,
      budget,
      requests: 0,
      sessions: 0,
      replays: 0,
      found: [],
      skipped: `it stopped on an internal error of the checker (please report it): ${(err as Error)?.message ?? String(err)}${at ? ` at ${at}` : ''}`,
    };
  }
}

export function summaryOf(e: Exploration, seedFrom: ExplorationPlan['seedFrom']): ExplorationSummary {
  return {
    seed: e.seed,
    ...(seedFrom ? { seedFrom } : {}),
    budget: e.budget,
    requests: e.requests,
    sessions: e.sessions,
    replays: e.replays,
    found: e.found.length,
    ...(e.idleMs !== undefined ? { idleMs: e.idleMs } : {}),
    ...(e.idleCut ? { idleCut: true } : {}),
    ...(e.idleHold
      ? {
          idleHold: {
            session: e.idleHold.session,
            tool: e.idleHold.tool,
            fetchedAt: e.idleHold.fetchedAt,
            calledAt: e.idleHold.calledAt,
            newConnection: e.idleHold.newConnection,
          },
        }
      : {}),
    ...(e.skipped ? { skipped: e.skipped } : {}),
  };
}
