// The time a sequence took, kept when it is shrunk: a grant that lapses after 150 ms is lost only
// when the call comes that late, so a targeted candidate that drops the steps between a session's
// fetch and its call, and does not break the rule plainly, is tried waiting in their place about
// as long as they took.
import { timesOf } from '../../transport/exchange-times.js';
import type { Played } from './play.js';
import type { Move } from './moves.js';

/** Gaps shorter than this are the machine's own pace, not time the server may count. */
const MIN_GAP_MS = 50;
/** A wait kept this long at most: a shrunk sequence that waits minutes helps nobody. */
const MAX_GAP_MS = 2000;

/**
 * The wait, rounded up to 100, 200, 400, 800, 1,600 or 2,000 ms: the same sequence shows the same
 * pause run after run (a seed replays a report), and it is never shorter than the gap it stands for.
 */
function quantized(gap: number): number {
  let ms = 100;
  while (ms < gap && ms < MAX_GAP_MS) ms *= 2;
  return Math.min(ms, MAX_GAP_MS);
}

/** When each move was sent (ms, performance clock), from the run that played it. */
export class MoveTimes {
  private readonly sent = new Map<Move, number>();
  private readonly order = new Map<Move, number>();

  constructor(moves: readonly Move[], played?: Pick<Played, 'exchanges'>, times?: ReadonlyMap<Move, number>) {
    moves.forEach((m, i) => {
      const at = times?.get(m) ?? played?.exchanges[i]?.map((ex) => timesOf(ex)?.sent).find((t) => t !== undefined);
      // A move sent together with others is known by itself too (a candidate may keep it alone).
      for (const move of m.kind === 'together' ? [m, ...m.moves] : [m]) {
        this.order.set(move, i);
        if (at !== undefined) this.sent.set(move, at);
      }
    });
  }

  /**
   * The candidate as played: before a move whose session's previous move in the candidate came
   * earlier in the original with moves dropped between them, a pause as long as the gap was.
   */
  kept(candidate: readonly Move[]): Move[] {
    const out: Move[] = [];
    const previous = new Map<number, Move>();
    for (const move of candidate) {
      if (move.kind === 'together') {
        out.push(move);
        continue;
      }
      const before = previous.get(move.session);
      if (before && move.kind !== 'pause' && before.kind !== 'pause') {
        const gap = (this.sent.get(move) ?? NaN) - (this.sent.get(before) ?? NaN);
        const [from, to] = [this.order.get(before), this.order.get(move)];
        const dropped =
          from !== undefined && to !== undefined && candidate.indexOf(move) - candidate.indexOf(before) < to - from;
        if (dropped && gap >= MIN_GAP_MS) out.push({ kind: 'pause', session: move.session, ms: quantized(gap) });
      }
      out.push(move);
      previous.set(move.session, move);
    }
    return out;
  }
}
