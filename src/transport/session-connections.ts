// The TCP connections of one Streamable HTTP session: its own keep-alive pool (renewed after a
// pause, as a client's is), or — joined to another session's — that one's single socket, shared
// as a client's pooled agent shares it; and the numbers the model knows them by.
import { ConnectionPool } from './http-request.js';
import type { Agent } from 'node:http';

/**
 * Every socket of the run, numbered as first used (whichever session's): two sessions on one socket share a connection.
 */
const RUN_SOCKETS = new WeakMap<object, number>();
let runSockets = 0;

export class SessionConnections {
  /**
   * The session's own connections: no two sessions share one unless joined, so that a server that
   * keeps grants by connection is judged the same in every run, whichever sockets a shared pool
   * would have handed out (and one session's requests still reuse its connections).
   */
  private pool: ConnectionPool;
  /** Pools given up by renew(), whose requests in flight may still finish: closed with the session. */
  private readonly oldPools: ConnectionPool[] = [];
  /** Another session's pool this one sends on (join): that session closes it. */
  private readonly borrowed = new Set<ConnectionPool>();
  /** The session's connections, numbered as they are first used (whatever pool they belong to). */
  private readonly numbers = new WeakMap<object, number>();
  private count = 0;

  constructor(private readonly url: () => URL) {
    this.pool = new ConnectionPool(url());
  }

  /** Where the session's next request goes. */
  get agent(): Agent {
    return this.pool.agent;
  }

  /**
   * The next requests go on new connections (the idle ones are closed), as after a pause long enough for a proxy or the
   * client to drop them.
   */
  renew(): void {
    const old = this.pool;
    this.pool = new ConnectionPool(this.url());
    if (this.borrowed.has(old)) return;
    old.closeIdle();
    this.oldPools.push(old);
  }

  /**
   * The next requests go on `other`'s connection, one socket at a time (keep-alive reuses it): both sessions' requests
   * share it.
   */
  join(other: SessionConnections): void {
    const shared = other.pool;
    shared.agent.maxSockets = 1;
    this.oldPools.push(this.pool);
    this.pool = shared;
    this.borrowed.add(shared);
  }

  openFresh(count: number, timeoutMs: number): Promise<void> {
    return this.pool.openFresh(count, timeoutMs);
  }

  /** A request went on `socket`: its number in the session, and in the run. */
  numbersOf(socket: object): { connection: number; socket: number } {
    const known = this.numbers.get(socket);
    const connection = known ?? this.count++;
    if (known === undefined) this.numbers.set(socket, connection);
    const run = RUN_SOCKETS.get(socket) ?? RUN_SOCKETS.set(socket, runSockets++).get(socket)!;
    return { connection, socket: run };
  }

  /** Closes every pool of the session's own (a borrowed one is its owner's to close). */
  close(): void {
    for (const pool of [this.pool, ...this.oldPools.splice(0)]) if (!this.borrowed.has(pool)) pool.destroy();
  }
}
