import { judge, type Judgement } from '../model/judge.js';
import { laboratory, MAX_SHRUNK, type ExploreDeps, type Exploration } from '../model/explore/explore.js';
import { shortest, type Found, type Lab } from '../model/explore/shortest.js';
import { historyOf, historyTimes } from '../model/explore/history.js';
import { CRITERION, type RuleBreak } from '../model/world.js';
import type { McpSession } from '../transport/session.js';
import type { RunDeadline } from '../core/execute.js';
import { mergeExploration, mergeJudgement, type SinkOf } from './merge.js';
import type { Run } from './run.js';

/** The sessions of the run that are not the exploration's. */
function checksSessions(run: Run): McpSession[] {
  return run.target.sessionsStarted().filter((s) => !run.marks.openedBy(s));
}

/**
 * Every exchange the checks' sessions made, whichever check made it, judged by the model (DESIGN,
 * "The model"), once the checks and their work at the end are done.
 */
export function judgeChecks(run: Run, deps: Pick<ExploreDeps, 'prior'>): Judgement {
  return judge(run.world, checksSessions(run), (s) => run.marks.checksExchanges(s), deps.prior);
}

/**
 * The checks' judgement and the exploration's findings become findings of the checks that own
 * them. A rule the checks broke and the exploration did not is shrunk from the checks' own sessions.
 */
export async function judgeRun(
  run: Run,
  deps: ExploreDeps,
  sinkOf: SinkOf,
  judged: Judgement,
  exploration: Exploration | undefined,
  deadline: RunDeadline | undefined,
): Promise<void> {
  const world = run.world;
  const own = checksSessions(run);
  // Rules that do not apply in this run (about grants, in a sessionless era) are neither said nor shrunk.
  const judgement = { ...judged, breaks: judged.breaks.filter((b) => run.applies(b)) };
  mergeJudgement(sinkOf, judgement);
  if (!exploration) return;
  mergeExploration(sinkOf, exploration.found);
  // A grant held through the idle window: the proof that rests on time says how long it waited.
  const held = exploration.idleHold;
  if (held) {
    // Its measured times differ from run to run: they are in the exploration's summary, not in the finding.
    sinkOf(CRITERION.grants)?.add(
      'info',
      'grant-held-idle',
      {
        session: held.session,
        tool: held.tool,
        window: run.plan.exploration.idleMs / 1000,
        connection: held.newConnection ? ' on a new connection,' : '',
      },
      { location: { tool: held.tool }, transcript: held.proof },
    );
  }
  const until = deadline ? deadline.at - 1000 : Number.POSITIVE_INFINITY;
  const lab = laboratory(deps, world, exploration.seed, until);
  const shrunk = lab
    ? await shortestOfHistory(
        lab,
        judgement.breaks,
        own,
        sinkOf,
        MAX_SHRUNK - exploration.found.length,
        world.descriptionsTool,
      )
    : { found: [], replays: 0 };
  exploration.replays += shrunk.replays;
  exploration.found.push(...shrunk.found);
  mergeExploration(sinkOf, shrunk.found);
}

/**
 * Shortest sequences for rules the checks broke and the exploration did not shrink (one per
 * criterion and code, at most `room`), replayed from the checks' own histories.
 */
async function shortestOfHistory(
  lab: Lab,
  breaks: readonly RuleBreak[],
  sessions: readonly McpSession[],
  sinkOf: SinkOf,
  room: number,
  mirror?: string,
): Promise<{ found: Found[]; replays: number }> {
  const out: { found: Found[]; replays: number } = { found: [], replays: 0 };
  const done = new Set<string>();
  for (const brk of breaks) {
    if (out.found.length >= room || brk.level === 'info' || performance.now() >= lab.until) break;
    const key = `${brk.check}\u0000${brk.code}`;
    const sink = sinkOf(brk.check);
    if (done.has(key) || !sink || sink.findings.some((f) => f.code === brk.code && f.sequence)) continue;
    done.add(key);
    const moves = historyOf(brk, sessions, mirror);
    if (!moves) continue;
    // The very rule the finding names: its sequence goes beside it.
    const { found, replays } = await shortest(lab, moves, brk, [], undefined, true, historyTimes(moves));
    out.replays += replays;
    if (found) {
      out.found.push(found);
      done.add(`${found.check}\u0000${found.code}`);
    }
  }
  return out;
}
