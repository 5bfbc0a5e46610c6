import type { McpSession } from '../../transport/session.js';
import type { Exchange } from '../../transport/types.js';

/**
 * Which exchanges of each session the exploration sent: from the index its first move there
 * found on. Those are judged apart from the checks', so that what the checks found and what the
 * exploration found do not blur. One per run.
 */
export class ExplorationMarks {
  private readonly from = new WeakMap<McpSession, number>();

  /** The exploration starts using `session` now (its earlier exchanges are the checks'). */
  mark(session: McpSession): void {
    if (!this.from.has(session)) this.from.set(session, session.exchanges.length);
  }

  /** From which exchange on the exploration used the session (0: it opened it), if it did. */
  startOf(session: McpSession): number | undefined {
    return this.from.get(session);
  }

  /** Whether the exploration opened the session itself (or a replay did). */
  openedBy(session: McpSession): boolean {
    return this.from.get(session) === 0;
  }

  /** The exchanges the checks made in a session (not the exploration's). */
  checksExchanges(session: McpSession): Exchange[] {
    const start = this.from.get(session);
    return start === undefined ? session.exchanges : session.exchanges.slice(0, start);
  }
}
