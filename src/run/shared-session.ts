import type { McpSession } from '../transport/session.js';

/**
 * The run's shared session P (where sessions are server processes): the checks with a `turn`
 * take it one after the other, lowest turn first, each once the one before it has ended (its run
 * done or never started). The first to take it opens it, with its own options (criterion 8 opens it
 * after the clean session ended); it ends with the checks, and what each check left in it is in
 * its exchanges, which the model judges as one session's history.
 */
export class SharedSession {
  private session: Promise<McpSession> | undefined;
  private readonly ended = new Map<string, () => void>();
  private readonly endedBy = new Map<string, Promise<void>>();

  /** `order`: the ids of the run's checks that take it, in their turn's order. */
  constructor(private readonly order: readonly string[]) {
    for (const id of order) this.endedBy.set(id, new Promise((resolve) => this.ended.set(id, resolve)));
  }

  /** Whether `checkId` takes its turn here. */
  takes(checkId: string): boolean {
    return this.endedBy.has(checkId);
  }

  /** The session, once every check before `checkId` has ended; `open` opens it if no one did. */
  async take(checkId: string, open: () => Promise<McpSession>): Promise<McpSession> {
    const before = this.order.slice(0, this.order.indexOf(checkId));
    await Promise.all(before.map((id) => this.endedBy.get(id) ?? Promise.resolve()));
    this.session ??= open();
    return this.session;
  }

  /** `checkId`'s turn is over (called once its run ended, or when it does not run). */
  release(checkId: string): void {
    this.ended.get(checkId)?.();
  }

  /** Ends it (once every check that takes it is done, their work at the end of the run too). */
  async close(): Promise<void> {
    const session = await this.session?.catch(() => undefined);
    await session?.close();
  }
}
