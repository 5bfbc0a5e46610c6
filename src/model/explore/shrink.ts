import { sessionsOf, type Move } from './moves.js';

/** How much shrinking may cost: replays of candidate sequences, and time. */
export interface ShrinkBudget {
  replays: number;
  /** performance.now() time after which no replay starts. */
  until: number;
  /**
   * Replays made so far, as the caller counts them: a candidate it answers from those it already
   * played costs none (delta debugging meets the targeted candidates again). By default each candidate is one.
   */
  made?: () => number;
}

/**
 * The shortest sequence that still breaks the same rule, by delta debugging: drop chunks of moves
 * (halves, then quarters… then single moves) while the rest still diverges, re-running each
 * candidate from new sessions (`stillFails` may give back the part that still fails). A move
 * inside `together` goes with it. Returns the sequence it ended with (the original when nothing
 * could be dropped).
 */
export async function shrink(
  moves: readonly Move[],
  stillFails: (moves: Move[]) => Promise<boolean | Move[] | undefined>,
  budget: ShrinkBudget,
): Promise<{ moves: Move[]; replays: number }> {
  let current = [...moves];
  let replays = 0;
  let parts = 2;
  const before = budget.made?.() ?? 0;
  const spent = () =>
    (budget.made ? budget.made() - before : replays) >= budget.replays || performance.now() >= budget.until;
  while (current.length > 1 && !spent()) {
    const size = Math.ceil(current.length / parts);
    let dropped = false;
    for (let start = 0; start < current.length && !spent(); start += size) {
      const candidate = [...current.slice(0, start), ...current.slice(start + size)];
      if (!candidate.length || !coherent(candidate)) continue;
      replays++;
      const kept = await stillFails(candidate);
      if (kept) {
        // It may say what part of the candidate still fails (the moves up to where it broke).
        current = Array.isArray(kept) ? kept : candidate;
        parts = Math.max(2, parts - 1);
        dropped = true;
        break;
      }
    }
    if (dropped) continue;
    if (size === 1) break;
    parts = Math.min(current.length, parts * 2);
  }
  return { moves: current, replays };
}

/** A sequence that can run: no session used after its end. */
function coherent(moves: readonly Move[]): boolean {
  const ended = new Set<number>();
  for (const move of moves) {
    const used = move.kind === 'together' ? move.moves : [move];
    for (const m of used) {
      if (m.kind === 'together') continue;
      if (ended.has(m.session)) return false;
      if (m.kind === 'end') ended.add(m.session);
    }
  }
  return sessionsOf(moves).length > 0;
}
