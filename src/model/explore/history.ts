import type { McpSession } from '../../transport/session.js';
import { afterEndOf, timesOf } from '../../transport/exchange-times.js';
import { opOf } from '../ops.js';
import type { RuleBreak } from '../world.js';
import type { Move } from './moves.js';

/** A gap longer than this between two steps of a session is kept as a pause (state may expire with time). */
const GAP_MS = 150;
/** Longer pauses are kept this long: a shrunk sequence that waits minutes helps nobody. */
const MAX_PAUSE_MS = 2000;
/** The newest steps a history keeps: shrinking has a budget of replays. */
const MAX_MOVES = 40;

/** When each move of a history was sent (the performance clock): shrinking keeps the time dropped steps took. */
const SENT = new WeakMap<Move, number>();

export function historyTimes(moves: readonly Move[]): Map<Move, number> {
  return new Map(moves.flatMap((m) => (SENT.has(m) ? [[m, SENT.get(m)!] as const] : [])));
}

/**
 * What a check's sessions did up to a broken rule, as moves that can be replayed from new sessions:
 * the sessions whose exchanges the break's proof holds, in time order, with their ends and the
 * pauses between their steps. Undefined when nothing of it can be replayed.
 */
export function historyOf(brk: RuleBreak, sessions: readonly McpSession[], mirror?: string): Move[] | undefined {
  const diverging = brk.proof[brk.proof.length - 1];
  const until = diverging ? timesOf(diverging)?.sent : undefined;
  if (!diverging || until === undefined) return undefined;
  const involved = sessions.filter((s) => s.exchanges.some((ex) => brk.proof.includes(ex)));
  const events: Array<{ at: number; session: number; move: Move }> = [];
  involved.forEach((session, n) => {
    for (const ex of session.exchanges) {
      const sent = timesOf(ex)?.sent;
      if (sent === undefined || sent > until || afterEndOf(ex)) continue;
      const op = opOf(ex, mirror);
      const move: Move | undefined =
        op.kind === 'read'
          ? {
              kind: 'fetch',
              session: n,
              names: op.items,
              ...(ex.method === 'tools/call' && mirror ? { viaTool: mirror } : {}),
            }
          : op.kind === 'read-missing'
            ? { kind: 'missing', session: n, empty: op.uri.includes('tools=') }
            : op.kind === 'call'
              ? { kind: 'call', session: n, tool: op.tool }
              : op.kind === 'list'
                ? { kind: 'list', session: n }
                : undefined;
      if (move) events.push({ at: sent, session: n, move });
    }
    if (session.endedAt !== undefined && session.endedAt < until)
      events.push({
        at: session.endedAt,
        session: n,
        move: { kind: 'end', session: n, terminate: session.endedBy === 'terminated' },
      });
  });
  events.sort((a, b) => a.at - b.at);
  const moves: Move[] = [];
  const lastAt = new Map<number, number>();
  for (const e of events) {
    SENT.set(e.move, e.at);
    const before = lastAt.get(e.session);
    if (before !== undefined && e.at - before > GAP_MS)
      moves.push({ kind: 'pause', session: e.session, ms: Math.round(Math.min(MAX_PAUSE_MS, e.at - before)) });
    moves.push(e.move);
    lastAt.set(e.session, e.at);
  }
  return moves.length ? moves.slice(-MAX_MOVES) : undefined;
}
