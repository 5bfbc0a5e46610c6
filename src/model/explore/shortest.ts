// The shortest sequence that still breaks a rule: targeted candidates first (the rule's skeleton,
// a fetch and its call, one session's own moves), then delta debugging (shrink.ts), each replayed
// in new sessions and judged by the model.
import type { ExplorationMarks } from './marks.js';
import type { RuleBreak } from '../world.js';
import { renumbered, sessionsOf, type Move } from './moves.js';
import { numberedSteps } from './outcome.js';
import { play, type Played, type Stage } from './play.js';
import { shrink } from './shrink.js';
import { MoveTimes } from './elapsed.js';
import {
  concerns,
  fetchesThenLast,
  fetchOfCall,
  fetchPauseCall,
  idleSessionOf,
  lastPair,
  ownSession,
  sequels,
  skeleton,
} from './candidates.js';

/** A rule the exploration found broken, with the shortest sequence that breaks it. */
export interface Found extends RuleBreak {
  sequence: { seed: number; steps: string[] };
}

/** Replays of delta debugging: over stdio each starts a server process, over HTTP a session is cheap. */
const replaysFor = (lab: Lab) => (lab.cheapSessions ? 24 : 12);
/**
 * Replays of one shrink in all, its targeted candidates included. A count, not a time: on a loaded
 * machine a replay takes longer, and a shrink cut by the clock showed a longer sequence than on a
 * quiet one (DESIGN, "The same verdict every run"). Only the run's own deadline cuts it by time.
 */
const totalReplaysFor = (lab: Lab) => 2 * replaysFor(lab);

/** How a sequence is re-run and judged while it is shrunk. */
export interface Lab {
  stage: Stage;
  /** The rules a run of moves broke (with the run's other sessions as context). */
  judged(played: Played): RuleBreak[];
  seed: number;
  /** performance.now() time after which no replay starts. */
  until: number;
  /** Whether a new session is cheap (over HTTP) or a server process (over stdio). */
  cheapSessions: boolean;
  marks: ExplorationMarks;
}

/**
 * The shortest sequence that still breaks a rule of `brk`'s criterion (which of them a minimal
 * sequence breaks names the cause best; with `sameCode`, the very rule): `block` first (the situation the break
 * happened in),
 * then delta debugging. Undefined when not even `moves` breaks it again (a race, or state that
 * new sessions do not have); `first` is then the proof, if it is given.
 */
export async function shortest(
  lab: Lab,
  moves: Move[],
  brk: RuleBreak,
  block: Move[] = [],
  first?: Played,
  sameCode = false,
  sentAt?: ReadonlyMap<Move, number>,
): Promise<{ found?: Found; replays: number; reproduced?: boolean }> {
  let last: { played: Played; moves: Move[]; brk: RuleBreak } | undefined;
  // The few targeted candidates below that do not break it again are tried once more waiting, where
  // they drop steps, about as long as those took (state that expires with time: a grant's TTL).
  const times = new MoveTimes(moves, first, sentAt);
  /** Candidates replayed, by their moves: what each showed (the same moves are not played twice). */
  const seen = new Map<string, { upTo: number; last: NonNullable<typeof last> } | undefined>();
  /** The candidate, cut after the move it broke the rule at, when it breaks it again; else undefined. */
  const reproduces = async (candidate: Move[]): Promise<Move[] | undefined> => {
    const renamed = renumbered(candidate);
    const key = JSON.stringify(renamed);
    if (seen.has(key)) {
      const known = seen.get(key);
      if (known) last = known.last;
      return known && candidate.slice(0, known.upTo);
    }
    if (played >= cap) return undefined;
    played++;
    seen.set(key, undefined);
    const run = await play(renamed, stage);
    const again = lab.judged(run).find((b) => b.check === brk.check && (!sameCode || b.code === brk.code));
    await closeAll(run);
    if (!again) return undefined;
    // What comes after the move it broke at is no part of it.
    const at = run.exchanges.findIndex((list) => list.includes(again.proof[again.proof.length - 1]));
    const upTo = at >= 0 ? at + 1 : renamed.length;
    last = {
      played: { sessions: run.sessions, exchanges: run.exchanges.slice(0, upTo) },
      moves: renamed.slice(0, upTo),
      brk: again,
    };
    seen.set(key, { upTo, last });
    return candidate.slice(0, upTo);
  };
  // Replays follow one another: the sessions of the next start while this one runs.
  const stage: Stage = { ...lab.stage, reserve: (count) => lab.stage.reserve?.(2 * count) };
  const until = lab.until;
  const cap = totalReplaysFor(lab);
  /** Replays made (a candidate tried before is not played again). */
  let played = 0;
  const made = () => played;
  // The idle session waited through the whole run: a break in another session is first tried
  // without it (a replay that does not wait), then shrunk from there.
  const idle = idleSessionOf(moves);
  const brokeIn = sessionsOf(moves.slice(-1));
  if (idle !== undefined && !brokeIn.includes(idle)) {
    const kept = await reproduces(moves.filter((m) => !sessionsOf([m]).includes(idle)));
    if (kept) moves = kept;
  }
  /**
   * A shorter candidate tried once; if it breaks the rule again, the answer: what of it concerns the
   * tool (for a rule about no one tool, its fetches and last move) tried alone — one replay that
   * leaves delta debugging little to do — then shrunk with `more` replays.
   */
  const fromCandidate = async (candidate: Move[], more: number) => {
    let kept = await reproduces(candidate);
    if (!kept) return undefined;
    const focus = brk.tool === undefined ? fetchesThenLast(kept) : kept.filter((m) => concerns(m, brk.tool!));
    if (focus?.length && focus.length < kept.length) {
      kept = (await reproduces(focus)) ?? kept;
    }
    // Shrinking leaves its shortest reproduction in `last` (reproduces keeps it).
    await shrink(kept, reproduces, { replays: more, until, made });
    return { replays: played, reproduced: true, found: foundOf(lab, last!) };
  };
  // A grant lost over a pause (the idle session's): the tool's fetch, the pause, the call — three
  // steps, the least that shows it, tried first and kept as it is (each replay waits the pause again).
  const overTime = brk.tool === undefined ? undefined : fetchPauseCall(moves, brk.tool);
  if (overTime && overTime.length < moves.length) {
    if (await reproduces(overTime)) return { replays: played, reproduced: true, found: foundOf(lab, last!) };
  }
  // Most broken rules need two steps: the diverging one and the step of its session before it.
  const pair = lastPair(moves);
  if (pair && pair.length < moves.length) {
    const found = await fromCandidate(pair, 2);
    if (found) return found;
  }
  // Then one step at a time between the tool's fetch and its last call, in that session: most grants
  // that are lost are lost to one other request (a listing, a read, a call).
  for (const candidate of brk.tool === undefined ? [] : sequels(moves, brk.tool)) {
    if (performance.now() >= until || played >= cap) break;
    if (await reproduces(candidate)) return { replays: played, reproduced: true, found: foundOf(lab, last!) };
  }
  // Then that session's own moves alone: most broken rules need no other session (its pauses stay).
  const own = ownSession(moves);
  // (One that is the pair's very moves is not played again: `seen` answers it.)
  if (own && own.length < moves.length) {
    const found = await fromCandidate(own, own.length);
    if (found) return found;
  }
  // Then its skeleton: the first step of that session about the tool, the time and the other sessions' steps after it,
  // the last step;
  // for a rule about no one tool (the listing), the session's fetches and the last step.
  const bones = brk.tool === undefined ? fetchesThenLast(moves) : skeleton(moves, brk.tool);
  if (bones && bones.length < moves.length) {
    const found = await fromCandidate(bones, bones.length);
    if (found) return found;
  }
  const tried = block.length > 0 && block.length < moves.length;
  const alone = tried ? await reproduces(block) : undefined;
  // The moves must break it once from new sessions before they are shrunk; when they do not (a race,
  // or the doing of sessions outside them), the first run is the proof, unshrunk.
  let start = alone;
  if (!start) {
    start = await reproduces(moves);
    if (!start) {
      return first
        ? {
            replays: played,
            reproduced: false,
            found: foundOf(lab, {
              played: { sessions: first.sessions, exchanges: first.exchanges.slice(0, moves.length) },
              moves,
              brk,
            }),
          }
        : { replays: played };
    }
  }
  // Then only what concerns the tool it is about (and the pauses and ends around it): most rules are about one tool.
  const focused = brk.tool === undefined ? start : start.filter((m) => concerns(m, brk.tool!));
  if (focused.length && focused.length < start.length) {
    start = (await reproduces(focused)) ?? start;
  }
  const shrunk = await shrink(start, reproduces, { replays: replaysFor(lab) - played, until, made });
  start = shrunk.moves;
  // A break that did not shrink may be bound to time (a grant that lapses): the tool's fetch and the
  // call, the pair and the skeleton once more, each waiting where it drops steps as long as those
  // took (the wait an explicit pause, then shrunk as any sequence) — last, so that breaks that are
  // not about time never pay for the wait.
  if (start.length > 3) {
    const fetchThenCall = brk.tool === undefined ? undefined : fetchOfCall(moves, brk.tool);
    for (const candidate of [fetchThenCall, pair, bones]) {
      if (!candidate || candidate.length >= start.length || performance.now() >= lab.until) continue;
      const timed = times.kept(candidate);
      if (timed.length === candidate.length) continue;
      const kept = await reproduces(timed);
      if (!kept) continue;
      await shrink(kept, reproduces, { replays: kept.length, until: lab.until, made });
      return { replays: played, reproduced: true, found: foundOf(lab, last!) };
    }
  }
  const proof =
    last ??
    (first
      ? { played: { sessions: first.sessions, exchanges: first.exchanges.slice(0, moves.length) }, moves, brk }
      : undefined);
  if (!proof) return { replays: played };
  return { replays: played, reproduced: last !== undefined, found: foundOf(lab, proof) };
}

function foundOf(lab: Lab, proof: { played: Played; moves: Move[]; brk: RuleBreak }): Found {
  return {
    ...proof.brk,
    proof: proof.played.exchanges.flat(),
    sequence: { seed: lab.seed, steps: numberedSteps(proof.moves, proof.played.exchanges) },
  };
}

/** Closes the sessions a play opened (not those it was lent). */
export async function closeAll(played: Played): Promise<void> {
  await Promise.all(played.sessions.filter((s) => !played.borrowed?.includes(s)).map((s) => s.close()));
}
