import type { Target } from '../../transport/target.js';
import type { McpSession } from '../../transport/session.js';
import { timesOf } from '../../transport/exchange-times.js';
import { classifyCall } from '../../protocol/calls.js';
import type { Exchange } from '../../transport/types.js';
import type { ExplorationMarks } from './marks.js';
import { judge, type LeftBehind } from '../judge.js';
import type { RuleBreak, World } from '../world.js';
import { generate } from './generate.js';
import { weight, type Move } from './moves.js';
import { play, type Played, type Stage } from './play.js';
import { Random } from './random.js';
import { MAX_PAUSE_MS } from './defaults.js';
import { closeAll, shortest, type Found, type Lab } from './shortest.js';

export interface ExploreOptions {
  /** Requests to generate (0: no exploration). */
  budget: number;
  seed: number;
  /** What a new session costs: a server process (stdio), or little (HTTP, in-process). */
  sessions: 'process' | 'cheap';
  /** performance.now() time by which exploration and shrinking must be done. */
  until: number;
  /**
   * Whether one session stays idle between a fetch and a call (the idle session), and for at least
   * how long (ms); `borrow`: a session of the run's to be it (Stage.borrowIdle) instead of a new one.
   */
  idle?: { minMs: number; until?: Promise<unknown>; borrow?: () => Promise<McpSession> };
  /** Told once every generated move is done but the idle session's wait and its call after it. */
  onBusyDone?: () => void;
  /** performance.now() time the run began (the idle proof says its times from it). */
  since?: number;
}

/** A grant that outlasted the idle session's wait: what criterion 6's report says beside its proof. */
export interface IdleHold {
  session: string;
  tool: string;
  /** Seconds from the run's start: the fetch was answered, the call after the wait was sent. */
  fetchedAt: number;
  calledAt: number;
  idleMs: number;
  /** The call came on a new connection (over HTTP). */
  newConnection: boolean;
  proof: Exchange[];
}

export interface Exploration {
  seed: number;
  budget: number;
  /** Requests sent, sessions used, replays made to shrink what was found. */
  requests: number;
  sessions: number;
  replays: number;
  found: Found[];
  /** Why nothing was explored, when nothing was. */
  skipped?: string;
  /** How long the idle session was idle between its grant and its last call (ms), when there was one. */
  idleMs?: number;
  /** The idle wait ended at the run's deadline (--max-duration), before its window. */
  idleCut?: boolean;
  /** The idle session's grant, honoured after its wait (absent when it was not, or there was none). */
  idleHold?: IdleHold;
}

/**
 * Sessions the exploration keeps alive at once, and uses in all, for a budget: over stdio each is
 * a server process (two at once, one more per 100 requests: separate processes share only what
 * they write to files or services, which two sessions show; a third caught no fixture more), over HTTP
 * they are cheap (six at once); and the idle session, when there is one. Its situations run in them at the same time,
 * beside the checks.
 */
export function explorationSessions(
  cost: 'process' | 'cheap',
  budget: number,
  idleSession = false,
  idleBorrowed = false,
): { live: number; total: number } {
  // The idle session is one more, of its own (nothing else is played in it while it waits) — unless the run lends one.
  const idle = idleSession && !idleBorrowed ? 1 : 0;
  const own =
    cost === 'process'
      ? { live: 2, total: 2 + Math.floor(budget / 100) }
      : { live: 6, total: 6 + Math.max(3, Math.floor(budget / 10)) };
  return { live: own.live + idle, total: own.total + idle };
}

/** Broken rules shrunk per run, at most (each shrink replays sequences from new sessions). */
export const MAX_SHRUNK = 4;
/** Instances of one rule tried, at most, for one that breaks again in new sessions. */
const ATTEMPTS_PER_RULE = 3;
/** What the exploration needs of the run: the target, the resource, the run's one door for calls, its marks. */
export interface ExploreDeps {
  target: Pick<Target, 'open' | 'reserve' | 'sessionsStarted' | 'cheapSessions'>;
  /** The tool_descriptions URI (undefined: nothing to explore). */
  resource: string | undefined;
  /** A call of `tool` in `session` through the run's door, or undefined where it may not be called. */
  call(session: McpSession, tool: string): Promise<Exchange | undefined>;
  /** Whether the door would call `tool` in a session that has not (`fetched` false) or has fetched it. */
  callable(tool: string, fetched: boolean): boolean;
  /** A read through the tool form of the resource (replays of a fetch made that way). */
  readThroughTool?: (session: McpSession, tool: string, names: string[]) => Promise<Exchange>;
  /** Which exchanges of each session the exploration sent. */
  marks: ExplorationMarks;
  /** What an earlier run against the same server left behind (the other protocol era's sessions). */
  prior?: LeftBehind;
  /** Whether a broken rule applies in this run (one that does not is neither shrunk nor said). */
  applies?(brk: RuleBreak): boolean;
}

/** The stage and judge of a run: moves reach the target through the run's door. */
export function laboratory(deps: ExploreDeps, world: World, seed: number, until: number): Lab | undefined {
  const { target, marks } = deps;
  if (!deps.resource) return undefined;
  const stage: Stage = {
    open: (label) => target.open(label),
    reserve: (count) => target.reserve(count),
    resource: deps.resource,
    call: (session, tool) => deps.call(session, tool),
    mark: (session) => marks.mark(session),
    ...(deps.readThroughTool ? { readThroughTool: deps.readThroughTool } : {}),
  };
  // Judged with the checks' sessions (as they are when it is judged): what they hold shows where a grant came from.
  const judged = (played: Played) => {
    const context = target.sessionsStarted().filter((s) => !marks.openedBy(s) && !played.sessions.includes(s));
    const own = new Set(played.exchanges.flat());
    const scope = (s: McpSession) => (played.sessions.includes(s) ? s.exchanges : marks.checksExchanges(s));
    return judge(world, [...context, ...played.sessions], scope, deps.prior).breaks.filter(
      (b) => b.level !== 'info' && own.has(b.proof[b.proof.length - 1]) && (deps.applies?.(b) ?? true),
    );
  };
  return { stage, judged, seed, until, cheapSessions: target.cheapSessions === true, marks };
}

/**
 * Explores the server from a seed (DESIGN, "The model"): a generated sequence of fetches, calls,
 * lists, missing selections, pauses, ends and requests in flight together, over sessions of its
 * own (situations in different sessions at the same time), judged by the model once `judgeAfter`
 * settles (the checks that run meanwhile are done); each rule it breaks is shrunk to the shortest
 * sequence that still breaks it, reported as numbered steps with their transcript.
 */
export async function explore(
  deps: ExploreDeps,
  world: World,
  options: ExploreOptions,
  judgeAfter: Promise<unknown> = Promise.resolve(),
): Promise<Exploration> {
  const out: Exploration = {
    seed: options.seed,
    budget: options.budget,
    requests: 0,
    sessions: 0,
    replays: 0,
    found: [],
  };
  const lab = laboratory(deps, world, options.seed, options.until);
  if (!lab) return { ...out, skipped: 'no tool_descriptions resource answers' };
  const byRank = (t: string) => (world.readOnly.has(t) ? 0 : 1);
  // The tool form of the resource is read through, not called (a call of it is a read).
  const callable = world.tools
    .filter(
      (t) => !t.includes(',') && t !== world.descriptionsTool && deps.callable(t, false) && deps.callable(t, true),
    )
    .sort((a, b) => byRank(a) - byRank(b));
  const limits = explorationSessions(options.sessions, options.budget);
  const { moves, blocks } = generate(
    {
      world,
      tools: world.tools.filter((t) => !t.includes(',')),
      callable,
      readOnly: callable.filter((t) => world.readOnly.has(t)),
      liveSessions: limits.live,
      totalSessions: limits.total,
      maxPauseMs: MAX_PAUSE_MS,
      ...(options.idle ? { idleMs: options.idle.minMs } : {}),
      endsMatter: options.sessions === 'cheap',
    },
    new Random(options.seed),
    options.budget,
  );
  // The run started its sessions ahead (they are in its plan): no reservation of its own here.
  // The idle session waits for the rest of the run (`idle.until`), at least its minimum.
  const first = await play(
    moves,
    {
      ...lab.stage,
      reserve: undefined,
      ...(options.idle?.until ? { idleUntil: options.idle.until } : {}),
      ...(options.idle?.borrow ? { borrowIdle: options.idle.borrow } : {}),
      closeWhenBusyDone: options.sessions === 'process',
      ...(Number.isFinite(options.until) ? { pausesEndBy: options.until } : {}),
    },
    blocks,
    options.onBusyDone,
  );
  // How long it really was idle: what the report says. A replay waits the stated window (--idle),
  // not the run's length: on a loaded machine the run, so the idleness, is longer, and a replay that
  // waited it too made shrinking depend on the load. Without a window (--idle 0), the run's length.
  if (first.idleMs !== undefined) {
    out.idleMs = first.idleMs;
    if (options.idle?.minMs && first.idleMs < options.idle.minMs) out.idleCut = true;
    for (const m of moves)
      if (m.kind === 'pause' && m.idle)
        m.ms = options.idle?.minMs ? Math.min(first.idleMs, options.idle.minMs) : first.idleMs;
    const held = idleHoldOf(moves, first, options.since ?? 0);
    if (held) out.idleHold = held;
  }
  out.requests = moves.reduce((n, m) => n + weight(m), 0);
  out.sessions = first.sessions.length;
  await judgeAfter;
  const breaks = inMoveOrder(first, lab.judged(first));
  await closeAll(first);
  // The checks ran meanwhile: a rule broken because of what they did (another session's fetch)
  // does not break again in new sessions. An instance that does is the one shown; one that never
  // does stands only if no instance of its rule reproduces.
  const shown = new Set<string>();
  const attempts = new Map<string, number>();
  const fallback = new Map<string, Found>();
  for (const { brk, at } of breaks) {
    const key = `${brk.check}\u0000${brk.code}`;
    if (
      shown.has(key) ||
      (attempts.get(key) ?? 0) >= ATTEMPTS_PER_RULE ||
      shown.size + fallback.size >= MAX_SHRUNK + (fallback.has(key) ? 1 : 0) ||
      performance.now() >= options.until
    )
      continue;
    attempts.set(key, (attempts.get(key) ?? 0) + 1);
    const block = moves.slice(0, at + 1).filter((_, i) => blocks[i] === blocks[at] && blocks[at] !== -1);
    const { found, replays, reproduced } = await shortest(lab, moves.slice(0, at + 1), brk, block, first);
    out.replays += replays;
    if (!found || out.found.some((f) => f.check === found.check && f.code === found.code)) continue;
    if (!reproduced) {
      if (!fallback.has(key)) fallback.set(key, found);
      continue;
    }
    fallback.delete(key);
    shown.add(key);
    shown.add(`${found.check}\u0000${found.code}`);
    out.found.push(found);
  }
  for (const found of fallback.values())
    if (!out.found.some((f) => f.check === found.check && f.code === found.code)) out.found.push(found);
  return out;
}

/** The idle session's fetch and its call after the wait, when the call was let through. */
function idleHoldOf(moves: readonly Move[], played: Played, since: number): IdleHold | undefined {
  const at = moves.findIndex((m) => m.kind === 'pause' && m.idle === true);
  const pause = moves[at];
  if (!pause || pause.kind !== 'pause' || played.idleMs === undefined) return undefined;
  const fetchAt = moves.findIndex((m) => m.kind === 'fetch' && m.session === pause.session);
  const callAt = moves.findIndex((m, i) => i > at && m.kind === 'call' && m.session === pause.session);
  const fetch = played.exchanges[fetchAt]?.[0];
  const call = played.exchanges[callAt]?.[0];
  const tool = moves[callAt]?.kind === 'call' ? (moves[callAt] as { tool: string }).tool : undefined;
  const [fetched, called] = [fetch && timesOf(fetch), call && timesOf(call)];
  if (!fetch || !call || !tool || !fetched?.done || !called || classifyCall(call).kind !== 'authorized')
    return undefined;
  const seconds = (t: number) => Math.round((t - since) / 10) / 100;
  return {
    session: call.session,
    tool,
    fetchedAt: seconds(fetched.done),
    calledAt: seconds(called.sent),
    idleMs: played.idleMs,
    newConnection: played.renewed === true,
    proof: [fetch, call],
  };
}

/**
 * Breaks in the order of the generated moves they happened at, not of the time they were sent:
 * sessions play their moves at once, and which of two sessions' instances of a rule came first in
 * time followed the machine (the instance shrunk, its replays and its proof did too).
 */
export function inMoveOrder(played: Played, breaks: readonly RuleBreak[]): Array<{ brk: RuleBreak; at: number }> {
  return breaks.map((brk) => ({ brk, at: moveOf(played, brk) })).sort((a, b) => a.at - b.at);
}

/** The move whose exchanges hold the break's diverging exchange (the last of its proof). */
function moveOf(played: Played, brk: RuleBreak): number {
  const diverging = brk.proof[brk.proof.length - 1];
  const i = played.exchanges.findIndex((list) => list.includes(diverging));
  return i < 0 ? played.exchanges.length - 1 : i;
}
