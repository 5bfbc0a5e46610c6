/**
 * The operations of an exploration, over numbered sessions of its own (0, 1, 2… shown as A, B, C…;
 * a number is never used again once its session ended). A sequence of these is what is generated,
 * run, judged and shrunk.
 */
export type Move =
  /** A read of `?tools=`; `viaTool`: through the tool form of the resource (a call of that tool). */
  | { kind: 'fetch'; session: number; names: string[]; viaTool?: string }
  | { kind: 'missing'; session: number; empty: boolean }
  | { kind: 'call'; session: number; tool: string }
  | { kind: 'list'; session: number }
  | { kind: 'end'; session: number; terminate: boolean }
  /**
   * The session stays idle this long (other sessions may work meanwhile). An `idle` pause is the
   * idle session's: the rest of the run does not wait for it (nor for what follows it there).
   */
  | { kind: 'pause'; session: number; ms: number; idle?: true }
  /** Requests sent together, in flight at the same time (fetches, calls, lists, missing reads). */
  | { kind: 'together'; moves: Move[] };

export function sessionName(n: number): string {
  return n < 26 ? String.fromCharCode(65 + n) : `S${n}`;
}

/** One move in words, for the numbered steps of a report. */
export function describeMove(move: Move): string {
  switch (move.kind) {
    case 'fetch': {
      const names = move.names.map((n) => JSON.stringify(n).slice(1, -1));
      const shown = names.length > 4 ? `${names.slice(0, 2).join(',')},… (${names.length} names)` : names.join(',');
      return move.viaTool
        ? `${sessionName(move.session)} calls ${move.viaTool} for ${shown}`
        : `${sessionName(move.session)} reads ?tools=${shown}`;
    }
    case 'missing':
      return `${sessionName(move.session)} reads the resource ${move.empty ? 'with an empty ?tools=' : 'without ?tools='}`;
    case 'call':
      return `${sessionName(move.session)} calls ${move.tool}`;
    case 'list':
      return `${sessionName(move.session)} lists the tools`;
    case 'end':
      return `${sessionName(move.session)} ends${move.terminate ? ' (the client terminates it)' : ' (the client goes away)'}`;
    case 'pause':
      return `${sessionName(move.session)} stays idle for ${move.ms} ms`;
    case 'together':
      return `at the same time: ${move.moves.map(describeMove).join('; ')}`;
  }
}

/** How many requests a move sends (the exploration's budget counts these). */
export function weight(move: Move): number {
  return move.kind === 'together' ? move.moves.length : move.kind === 'pause' || move.kind === 'end' ? 1 : 1;
}

/** Sessions a sequence uses, in order of first use. */
export function sessionsOf(moves: readonly Move[]): number[] {
  const seen: number[] = [];
  const visit = (m: Move) => {
    if (m.kind === 'together') m.moves.forEach(visit);
    else if (!seen.includes(m.session)) seen.push(m.session);
  };
  moves.forEach(visit);
  return seen;
}

/** The same moves with their sessions numbered from 0 in order of first use (A, B… in a report). */
export function renumbered(moves: readonly Move[]): Move[] {
  const order = sessionsOf(moves);
  const map = (m: Move): Move => {
    if (m.kind === 'together') return { ...m, moves: m.moves.map(map) };
    return { ...m, session: order.indexOf(m.session) };
  };
  return moves.map(map);
}
