// A session's requests waiting for their answers: each with its timer, re-timed once the server
// first speaks (the start-up allowance gives way to the request limit), cut short by progress on a
// watched call, and settled exactly once — answered, timed out, failed by the wire, or closed.
import type { Exchange, JsonObject, Wire } from './types.js';
import { clip, asText } from '../util/text.js';
import { finished, wentOn } from './exchange-times.js';
import { seconds } from './server-words.js';

interface Pending {
  exchange: Exchange;
  started: number;
  resolve: (e: Exchange) => void;
  timer: NodeJS.Timeout;
  /** The time limit this request was given (ms). */
  limitMs: number;
  /** The wire's count of stderr lines when the request was sent ("what it printed meanwhile"). */
  stderrMark: number;
  /**
   * Start-up: a request sent before the server has said anything (initialize) waits the start-up
   * allowance; once the server speaks, the request limit applies from then on.
   */
  startup: boolean;
  /** The timer fired; the request waits out the exit grace (a late reply no longer counts). */
  expired?: boolean;
}

/**
 * After a request's timer fires, how long to wait for the server process to exit before calling
 * it a timeout: a server that dies while its reply is due is reported as dead, not as slow.
 */
export const EXIT_GRACE_MS = 500;

/** How long a call that reported progress may still take to answer before it is cancelled (ms). */
export const PROGRESS_GRACE_MS = 300;

export class PendingRequests {
  private readonly pending = new Map<string, Pending>();
  /** Request ids whose progress token is their id (calls sent `untilProgress`). */
  private readonly watchProgress = new Set<string>();

  /** `cancel`: tells the server a request is cancelled (MCP's notifications/cancelled). */
  constructor(
    private readonly wire: Wire,
    private readonly timeoutMs: number,
    private readonly cancel: (requestId: number, reason: string) => void,
  ) {
    // Over HTTP: the connection each request went on (the model tells grants kept by connection by it).
    wire.onConnection?.((id, connection, socket) => {
      const entry = this.pending.get(asText(id));
      if (entry) wentOn(entry.exchange, connection, socket);
    });
  }

  /** Waits for the answer to `exchange`'s request (sent now), for at most `limitMs`. */
  wait(exchange: Exchange, started: number, limitMs: number, startup: boolean): Promise<Exchange> {
    return new Promise((resolve) => {
      const key = asText(exchange.request.id);
      const entry: Pending = {
        exchange,
        started,
        resolve,
        limitMs,
        stderrMark: this.wire.stderrCount?.() ?? 0,
        startup,
        timer: setTimeout(() => this.expire(key), limitMs),
      };
      this.pending.set(key, entry);
    });
  }

  /** Progress on the request with this id ends its wait (see McpSession.callTool). */
  watch(id: number): void {
    this.watchProgress.add(asText(id));
  }

  /**
   * A request's time is up. A server process that exits within a short grace is reported as
   * exited (its code and stderr), never as slow; otherwise it is a timeout, said with how long the
   * process had been alive and what it wrote on stderr while the request waited.
   */
  private expire(key: string): void {
    const entry = this.pending.get(key);
    if (!entry || entry.expired) return;
    entry.expired = true;
    const waited = performance.now() - entry.started;
    const note = this.timeoutNote(entry, waited);
    entry.timer = setTimeout(
      () => {
        if (this.pending.get(key) !== entry) return;
        this.pending.delete(key);
        // Bounded whatever keeps arriving: a stream of keep-alives for this request is cut here.
        this.wire.abandon?.(entry.exchange.request.id);
        this.settle(entry, { noResponse: 'timeout', note }, waited);
      },
      this.wire.alive !== undefined ? EXIT_GRACE_MS : 0,
    );
  }

  private timeoutNote(entry: Pending, waited: number): string {
    // A timer may fire up to a millisecond before performance.now() says it is due: that is the limit.
    const limit = Math.round(waited >= entry.limitMs - 1 ? entry.limitMs : waited);
    const base = `no response within ${limit} ms`;
    const alive = this.wire.alive?.();
    if (alive === undefined) return base;
    const lines = this.wire.stderrCount!() - entry.stderrMark;
    const tail = this.wire.stderrTail();
    const last = lines > 0 ? tail[tail.length - 1] : undefined;
    const said =
      last === undefined
        ? 'wrote nothing on stderr meanwhile'
        : `wrote ${lines === 1 ? 'one line' : `${lines} lines`} on stderr meanwhile, the last: "${clip(last, 160)}"`;
    return `${base}; the server process had been running for ${seconds(alive)} and ${said}`;
  }

  /** The server spoke (at `heardAt`): requests still waiting on the start-up allowance now get the request limit. */
  serverSpoke(heardAt: number): void {
    for (const [key, entry] of this.pending) {
      if (!entry.startup || entry.expired) continue;
      entry.startup = false;
      const left = entry.started + entry.limitMs - heardAt;
      if (left <= this.timeoutMs) continue;
      clearTimeout(entry.timer);
      entry.limitMs = heardAt - entry.started + this.timeoutMs;
      entry.timer = setTimeout(() => this.expire(key), this.timeoutMs);
    }
  }

  /** The server reported progress on a call it was asked to: the call reached its tool. */
  progress(message: JsonObject): void {
    const token = (message.params as JsonObject | undefined)?.progressToken;
    const key = asText(token);
    const entry = this.watchProgress.has(key) ? this.pending.get(key) : undefined;
    if (!entry || entry.expired || entry.exchange.progress) return;
    entry.exchange.progress = message;
    const left = entry.started + entry.limitMs - performance.now();
    if (left <= PROGRESS_GRACE_MS) return;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      if (this.pending.get(key) !== entry) return;
      this.pending.delete(key);
      // MCP cancellation: the server should stop the work and send no response.
      this.cancel(
        entry.exchange.request.id as number,
        'The call reported progress: it reached the tool, which is all the checker needed to know.',
      );
      // Over HTTP its stream is cut too: a server may go on streaming progress.
      this.wire.abandon?.(entry.exchange.request.id);
      const waited = performance.now() - entry.started;
      this.settle(
        entry,
        {
          noResponse: 'cancelled',
          note: `it reached the tool: the server reported progress on it, and the checker cancelled it after ${seconds(waited)}`,
        },
        waited,
      );
    }, PROGRESS_GRACE_MS);
  }

  /** An answer: true when it settled a waiting request (false: a late or a stray reply). */
  answer(message: JsonObject): boolean {
    const key = asText(message.id);
    const entry = this.pending.get(key);
    if (!entry || entry.expired) return false;
    this.pending.delete(key);
    clearTimeout(entry.timer);
    this.settle(entry, { response: message });
    return true;
  }

  /** The wire could not carry the request (over HTTP: its POST failed): closed, with why. */
  fail(id: unknown, reason: string): void {
    const entry = this.pending.get(asText(id));
    if (!entry) return;
    this.pending.delete(asText(id));
    clearTimeout(entry.timer);
    this.settle(entry, { noResponse: 'closed', note: reason });
  }

  /** The session closed: every request still waiting is closed, with why. */
  closeAll(note: string): void {
    for (const [id, entry] of this.pending) {
      this.pending.delete(id);
      clearTimeout(entry.timer);
      this.settle(entry, { noResponse: 'closed', note });
    }
  }

  private settle(
    entry: Pending,
    outcome: Pick<Exchange, 'response' | 'noResponse' | 'note'>,
    waited = performance.now() - entry.started,
  ): void {
    Object.assign(entry.exchange, outcome);
    entry.exchange.durationMs = Math.round(waited);
    finished(entry.exchange);
    entry.resolve(entry.exchange);
  }
}
