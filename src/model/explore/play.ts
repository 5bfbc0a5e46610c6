import { descriptionsUri } from '../../protocol/uri.js';
import type { McpSession } from '../../transport/session.js';
import type { Exchange } from '../../transport/types.js';
import { sessionName, sessionsOf, type Move } from './moves.js';

/** How moves reach the server: new sessions, the resource, and calls as the run's call plan allows. */
export interface Stage {
  open(label: string): Promise<McpSession>;
  /** About this many sessions will be opened now (the target may start them together). */
  reserve?(count: number): void;
  resource: string;
  /** A call of `tool` in `session`, or undefined where the call plan says not to call. */
  call(session: McpSession, tool: string): Promise<Exchange | undefined>;
  /** A read through the tool form of the resource (`tool`), for a fetch made that way. */
  readThroughTool?(session: McpSession, tool: string, names: string[]): Promise<Exchange>;
  /** The exploration starts using `session` (its exchanges from now on are the exploration's). */
  mark(session: McpSession): void;
  /** The idle session's pause lasts until this settles (the rest of the run is done), and its own length at least. */
  idleUntil?: Promise<unknown>;
  /**
   * The idle session is a session of the run's, lent once the checks are done with it (over stdio:
   * the probe, a process less), not a new one. It is judged with the rest and never closed here.
   */
  borrowIdle?: () => Promise<McpSession>;
  /**
   * Sessions with nothing left to do once every move but the idle session's tail is done are closed
   * then (over stdio each is a process, alive through the idle wait for nothing).
   */
  closeWhenBusyDone?: boolean;
  /** The run's own deadline (--max-duration, by performance.now()): no pause lasts past it. */
  pausesEndBy?: number;
}

export interface Played {
  sessions: McpSession[];
  /** The exchanges each move sent, in the order of the moves. */
  exchanges: Exchange[][];
  /** How long the idle session was idle (ms), when one was played. */
  idleMs?: number;
  /** Whether its call after the wait went on a new connection (over HTTP). */
  renewed?: boolean;
  /** Sessions it was lent (`Stage.borrowIdle`): among `sessions`, but not its own to close. */
  borrowed?: McpSession[];
}

/**
 * Runs moves in sessions of their own (opened on first use); a `together` move sends at once.
 * Without `blocks`, in order. With `blocks` (the situation each move belongs to, -1 for none), a
 * move waits only for what it depends on — the move before it in each session it uses, the move
 * before it in its situation, and, for a session's first move, every end before it — so that
 * situations in different sessions run at the same time. `onBusyDone` is told once every move is
 * done but the idle sessions' tails (an idle pause and what follows it in its session).
 */
export async function play(
  moves: readonly Move[],
  stage: Stage,
  blocks?: readonly number[],
  onBusyDone?: () => void,
): Promise<Played> {
  stage.reserve?.(sessionsOf(moves).length);
  const sessions = new Map<number, McpSession>();
  const opened: McpSession[] = [];
  const borrowed: McpSession[] = [];
  const idleSession = moves.find(
    (m): m is Extract<Move, { kind: 'pause' }> => m.kind === 'pause' && m.idle === true,
  )?.session;
  const sessionOf = async (n: number): Promise<McpSession> => {
    let session = sessions.get(n);
    if (!session) {
      const lent = n === idleSession && stage.borrowIdle !== undefined;
      session = await (lent ? stage.borrowIdle!() : stage.open(sessionName(n)));
      if (lent) borrowed.push(session);
      stage.mark(session);
      sessions.set(n, session);
      opened.push(session);
    }
    return session;
  };
  /** When each session last had an answer: a pause waits only what is left of it. */
  const lastUsed = new Map<number, number>();
  let idleMs: number | undefined;
  let renewed = false;
  const run = async (move: Move): Promise<Exchange[]> => {
    const done = (n: number, exchanges: Exchange[]) => {
      lastUsed.set(n, performance.now());
      return exchanges;
    };
    switch (move.kind) {
      case 'pause': {
        const since = lastUsed.get(move.session) ?? performance.now();
        const end = Math.min(since + move.ms, stage.pausesEndBy ?? Number.POSITIVE_INFINITY);
        const left = () => end - performance.now();
        await (move.idle ? stage.idleUntil : undefined);
        // A timer may fire a hair early by this clock: the pause is at least its length.
        while (left() > 0) await new Promise((resolve) => setTimeout(resolve, Math.ceil(left())));
        if (move.idle) {
          idleMs = Math.round(performance.now() - since);
          // After a pause that long a client's connections may be gone: the call comes on a new one (a grant is the
          // session's).
          renewed = sessions.get(move.session)?.renewConnections() ?? false;
        }
        return [];
      }
      case 'together': {
        // Every session and its connections first, so that the requests really leave together.
        const perSession = new Map<number, number>();
        for (const m of move.moves)
          if (m.kind !== 'together') perSession.set(m.session, (perSession.get(m.session) ?? 0) + 1);
        for (const [n, count] of perSession) await (await sessionOf(n)).openConnections(count);
        return (await Promise.all(move.moves.map(run))).flat();
      }
      default: {
        const session = await sessionOf(move.session);
        if (move.kind === 'fetch') {
          const read =
            move.viaTool && stage.readThroughTool
              ? stage.readThroughTool(session, move.viaTool, move.names)
              : session.readResource(descriptionsUri(stage.resource, move.names));
          return done(move.session, [await read]);
        }
        if (move.kind === 'missing')
          return done(move.session, [
            await session.readResource(
              move.empty ? `${stage.resource}${stage.resource.includes('?') ? '&' : '?'}tools=` : stage.resource,
            ),
          ]);
        if (move.kind === 'list') return done(move.session, [await session.request('tools/list')]);
        if (move.kind === 'call') {
          const ex = await stage.call(session, move.tool);
          return done(move.session, ex ? [ex] : []);
        }
        await session.close({ terminate: move.terminate });
        const after = await session.requestAfterEnd();
        return after ? [after] : [];
      }
    }
  };
  const exchanges: Exchange[][] = [];
  if (!blocks) {
    for (const move of moves) exchanges.push(await run(move));
    onBusyDone?.();
    return {
      sessions: opened,
      exchanges,
      ...(idleMs !== undefined ? { idleMs, renewed } : {}),
      ...(borrowed.length ? { borrowed } : {}),
    };
  }
  const lastInSession = new Map<number, Promise<unknown>>();
  const lastInBlock = new Map<number, Promise<unknown>>();
  const ends: Array<Promise<unknown>> = [];
  const all = moves.map((move, i) => {
    const used = sessionsOf([move]);
    const after = [
      ...used.map((n) => lastInSession.get(n) ?? Promise.all(ends)),
      ...(blocks[i] !== undefined && blocks[i] >= 0 ? [lastInBlock.get(blocks[i]) ?? Promise.resolve()] : []),
    ];
    const done = Promise.all(after)
      .then(() => run(move))
      .then((ex) => {
        exchanges[i] = ex;
      });
    for (const n of used) lastInSession.set(n, done);
    if (blocks[i] !== undefined && blocks[i] >= 0) lastInBlock.set(blocks[i], done);
    if (move.kind === 'end') ends.push(done);
    return done;
  });
  if (onBusyDone) {
    const waiting = idleTails(moves);
    const busyDone = () => {
      const done = stage.closeWhenBusyDone
        ? [...sessions]
            .filter(([n, session]) => n !== idleSession && !borrowed.includes(session))
            .map(([, session]) => session.close())
        : [];
      void Promise.allSettled(done).then(onBusyDone);
    };
    void Promise.all(all.filter((_, i) => !waiting.has(i))).then(busyDone, busyDone);
  }
  await Promise.all(all);
  return {
    sessions: opened,
    exchanges,
    ...(idleMs !== undefined ? { idleMs, renewed } : {}),
    ...(borrowed.length ? { borrowed } : {}),
  };
}

/** The moves that only wait: each idle pause, and every later move of its session. */
function idleTails(moves: readonly Move[]): Set<number> {
  const out = new Set<number>();
  moves.forEach((move, i) => {
    if (move.kind !== 'pause' || !move.idle) return;
    for (let j = i; j < moves.length; j++) if (sessionsOf([moves[j]]).includes(move.session)) out.add(j);
  });
  return out;
}
