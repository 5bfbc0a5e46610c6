// The shapes of candidate sequences a broken rule is first tried as (shortest.ts tries them in
// order, before delta debugging): each is cut from the sequence that broke it, by what the rule is about.
import { resembled } from '../ops.js';
import type { Move } from './moves.js';

/** The idle session of a sequence (the session of its idle pause), if it has one. */
export function idleSessionOf(moves: readonly Move[]): number | undefined {
  return moves.find((m): m is Extract<Move, { kind: 'pause' }> => m.kind === 'pause' && m.idle === true)?.session;
}

/**
 * The last move's session: its first move about `tool`, then the pauses of that session and every
 * move of other sessions after it, then the last move (a grant that time or another session took away).
 */
export function skeleton(moves: readonly Move[], tool: string): Move[] | undefined {
  const last = moves[moves.length - 1];
  if (!last || last.kind === 'together' || last.kind === 'pause') return undefined;
  const start = moves.findIndex(
    (m) =>
      m.kind !== 'together' &&
      m.kind !== 'pause' &&
      m.session === last.session &&
      concerns(m, tool) &&
      m.kind !== 'missing',
  );
  if (start < 0 || start === moves.length - 1) return undefined;
  const between = moves
    .slice(start + 1, -1)
    .filter((m) => m.kind === 'together' || m.session !== last.session || m.kind === 'pause');
  return [moves[start], ...between, last];
}

/** Sequels tried one by one, at most. */
const MAX_SEQUELS = 6;

/**
 * For a call of `tool` that ended the moves: its session's fetch of the tool, then one other move
 * of that session (not about the tool) from between them, then the call — each such move in turn.
 */
export function sequels(moves: readonly Move[], tool: string): Move[][] {
  const last = moves[moves.length - 1];
  if (!last || last.kind !== 'call' || last.tool !== tool) return [];
  const fetch = moves.findIndex(
    (m) => m.kind === 'fetch' && m.session === last.session && m.names.some((n) => n === tool),
  );
  if (fetch < 0) return [];
  const between = moves
    .slice(fetch + 1, -1)
    .filter(
      (m) =>
        m.kind !== 'together' &&
        m.kind !== 'pause' &&
        m.kind !== 'end' &&
        m.session === last.session &&
        (m.kind === 'missing' || !concerns(m, tool)),
    );
  return between.slice(0, MAX_SEQUELS).map((m) => [moves[fetch], m, last]);
}

/**
 * For a call of `tool` that ended the moves after a pause of its session: that session's first
 * fetch of the tool, its pauses after it, then the call (undefined when no pause came between).
 */
export function fetchPauseCall(moves: readonly Move[], tool: string): Move[] | undefined {
  const found = fetchOfCall(moves, tool);
  const last = moves[moves.length - 1];
  if (!found || !last || last.kind !== 'call') return undefined;
  const from = moves.findIndex((m) => m === found[0] || (m.kind === 'together' && m.moves.includes(found[0])));
  const pauses = moves.slice(from + 1, -1).filter((m) => m.kind === 'pause' && m.session === last.session);
  return pauses.length ? [found[0], ...pauses, last] : undefined;
}

/**
 * For a call of `tool` that ended the moves: its session's first fetch of the tool (taken out of
 * a `together` if it was sent with others), then the call.
 */
export function fetchOfCall(moves: readonly Move[], tool: string): Move[] | undefined {
  const last = moves[moves.length - 1];
  if (!last || last.kind !== 'call' || last.tool !== tool) return undefined;
  const fetches = (m: Move): boolean => m.kind === 'fetch' && m.session === last.session && m.names.includes(tool);
  for (const m of moves.slice(0, -1)) {
    const found = m.kind === 'together' ? m.moves.find(fetches) : fetches(m) ? m : undefined;
    if (found) return [found, last];
  }
  return undefined;
}

/** The moves of the last move's session alone (its part of a `together`, still together). */
export function ownSession(moves: readonly Move[]): Move[] | undefined {
  const last = moves[moves.length - 1];
  if (!last || last.kind === 'together') return undefined;
  return moves.flatMap((m): Move[] => {
    if (m.kind !== 'together') return m.session === last.session ? [m] : [];
    const own = m.moves.filter((x) => x.kind !== 'together' && x.session === last.session);
    return own.length > 1 ? [{ kind: 'together', moves: own }] : own;
  });
}

/** The fetches of the last move's session, then the last move (what changes a listing is a fetch). */
export function fetchesThenLast(moves: readonly Move[]): Move[] | undefined {
  const last = moves[moves.length - 1];
  if (!last || last.kind === 'together' || last.kind === 'pause') return undefined;
  // A fetch sent together with others counts too (its fetches of this session, still together).
  const fetches = moves.slice(0, -1).flatMap((m): Move[] => {
    if (m.kind === 'fetch') return m.session === last.session ? [m] : [];
    if (m.kind !== 'together') return [];
    const own = m.moves.filter((x) => x.kind === 'fetch' && x.session === last.session);
    return own.length > 1 ? [{ kind: 'together', moves: own }] : own;
  });
  return fetches.length ? [...fetches, last] : undefined;
}

/** The last move and the move of the same session before it (a pause between them kept). */
export function lastPair(moves: readonly Move[]): Move[] | undefined {
  const last = moves[moves.length - 1];
  if (!last || last.kind === 'together' || last.kind === 'pause') return undefined;
  for (let i = moves.length - 2; i >= 0; i--) {
    const m = moves[i];
    if (m.kind === 'pause' && m.session === last.session) continue;
    if (m.kind !== 'together' && m.kind !== 'pause' && m.session === last.session) {
      const pause = moves.slice(i + 1, -1).filter((p) => p.kind === 'pause' && p.session === last.session);
      return [m, ...pause, last];
    }
  }
  return undefined;
}

/**
 * Whether a move concerns a tool: it names the tool, or it is a pause or an end (time and sessions matter to grants).
 */
export function concerns(move: Move, tool: string): boolean {
  if (move.kind === 'together') return move.moves.some((m) => concerns(m, tool));
  if (move.kind === 'fetch')
    return move.names.some((n) => n === tool || n.trim() === tool || resembled(n, [tool]) !== undefined);
  if (move.kind === 'call') return move.tool === tool;
  return move.kind === 'pause' || move.kind === 'end' || move.kind === 'missing';
}
