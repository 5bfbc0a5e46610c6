import { TargetUnavailableError, type JsonObject, type Wire } from './types.js';
import { MODERN_ERA, modernHeaders } from './era.js';
import { clip, sanitizeLine } from '../util/text.js';
import { DEFAULT_LIMITS, megabytes, parseMessage, TOO_LARGE, type WireLimits } from './limits.js';
import { EventTooLarge, readEventStream } from './event-stream.js';
import {
  connectionRefused,
  displayUrl,
  fetchSameOrigin,
  networkReason,
  readCapped,
  unauthorized,
  type SameOriginResult,
} from './http-common.js';
import { httpRequest, type HttpResponse } from './http-request.js';
import { SessionConnections } from './session-connections.js';

export { displayUrl };

const DELETE_TIMEOUT_MS = 2000;
/** How long an event stream may stay open once its request is answered (then it is cut: a socket each). */
const AFTER_ANSWER_MS = 1000;

/**
 * One MCP session over Streamable HTTP, spoken directly: POST each message, read a JSON or an
 * SSE reply, keep the Mcp-Session-Id, DELETE on close. Raw messages are kept as they came (the
 * SDK's client transport validates and would drop malformed ones).
 */
export class HttpWire implements Wire {
  readonly describe: string;
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  private messageHandler: (m: JsonObject) => void = () => {};
  private garbageHandler: (t: string) => void = () => {};
  private failHandler: (id: unknown, reason: string) => void = () => {};
  private connectionHandler: (id: unknown, connection: number, socket: number) => void = () => {};
  private closeHandlers: Array<(reason: string, lost?: boolean) => void> = [];
  private readonly inflight = new Set<AbortController>();
  /** The POST of each request still waiting for its answer, by JSON-RPC id (to abandon it). */
  private readonly byId = new Map<unknown, AbortController>();
  private readonly problems: string[] = [];
  private closed = false;
  /** Whether the server was told the session ended (DELETE), now or after the run. */
  private released = false;
  /** The HTTP status of the first response (a 4xx to initialize suggests the older HTTP+SSE transport). */
  firstStatus: number | undefined;

  /** Where requests go: the given URL, or where a same-origin permanent redirect moved it. */
  private url: URL;
  /** The session's connections: its own, or another session's it joined. */
  private readonly connections: SessionConnections;

  constructor(
    url: URL,
    private readonly headers: Record<string, string>,
    private readonly limits: WireLimits = DEFAULT_LIMITS,
    private readonly redact: (text: string) => string = (t) => t,
  ) {
    this.url = url;
    this.describe = displayUrl(url);
    this.connections = new SessionConnections(() => this.url);
  }

  /**
   * The session's next requests go on new connections (its idle ones are closed), as after a pause
   * long enough for a proxy or the client to drop them: the session, not the connection, holds grants.
   */
  renewConnections(): void {
    this.connections.renew();
  }

  /**
   * From now on this session's requests go on `other`'s connection: one keep-alive socket that both
   * sessions' requests share, as a client's pooled HTTP agent sends them (Node's fetch keeps one pool
   * per origin). A server that keeps grants by connection hands one session's grants to the other.
   */
  joinConnections(other: Wire): boolean {
    if (!(other instanceof HttpWire) || other === this) return false;
    this.connections.join(other.connections);
    return true;
  }

  openConnections(count: number, timeoutMs: number): Promise<void> {
    return this.connections.openFresh(count, timeoutMs);
  }

  onMessage(handler: (m: JsonObject) => void): void {
    this.messageHandler = handler;
  }
  onGarbage(handler: (t: string) => void): void {
    this.garbageHandler = handler;
  }
  onRequestFailed(handler: (id: unknown, reason: string) => void): void {
    this.failHandler = handler;
  }
  onConnection(handler: (id: unknown, connection: number, socket: number) => void): void {
    this.connectionHandler = handler;
  }
  onClose(handler: (reason: string, lost?: boolean) => void): void {
    this.closeHandlers.push(handler);
  }
  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }
  stderrTail(): string[] {
    return this.problems.slice(-20);
  }

  async send(message: JsonObject): Promise<void> {
    if (this.closed) return;
    const id = 'id' in message && 'method' in message ? message.id : undefined;
    const fail = (reason: string) => {
      const safe = this.redact(reason);
      this.problems.push(sanitizeLine(safe));
      if (id !== undefined) this.failHandler(id, safe);
    };
    const controller = new AbortController();
    this.inflight.add(controller);
    if (id !== undefined) this.byId.set(id, controller);
    try {
      const posted = await this.post(message, controller.signal, id);
      if (posted.refused !== undefined) {
        fail(posted.refused);
        return;
      }
      const res = posted.res;
      this.firstStatus ??= res.status;
      const sid = res.headers.get('mcp-session-id');
      if (sid && !this.sessionId) this.sessionId = sid;
      if (res.status === 202 || res.status === 204) {
        await res.body?.cancel();
        return;
      }
      const type = res.headers.get('content-type') ?? '';
      if (type.includes('text/event-stream') && res.ok) {
        const answered = await this.readEvents(res, id);
        if (id !== undefined && !answered && !this.closed) fail('the server ended its event stream without answering');
        return;
      }
      const text = await readCapped(res, this.limits.maxMessageBytes);
      if (text === undefined) {
        this.garbageHandler(`${TOO_LARGE}: HTTP ${res.status} ${type}`);
        fail(`the response body is larger than ${megabytes(this.limits.maxMessageBytes)} (--max-response)`);
        return;
      }
      // A body that is not JSON at all is reported once, below, with its HTTP status.
      const parsed = this.parse(text, true);
      // A JSON-RPC reply is delivered whatever the status (servers answer errors with 4xx bodies).
      if (parsed && (Array.isArray(parsed) || 'jsonrpc' in parsed) && this.deliver(parsed, id)) return;
      if (res.status === 401) {
        fail(unauthorized(res, this.url, this.headers));
      } else if (!res.ok) {
        const gone = res.status === 404 && this.sessionId ? ' (the server no longer knows this session)' : '';
        fail(
          `HTTP ${res.status} ${res.statusText}${gone}: ${clip(sanitizeLine(this.redact(text)), 200) || 'empty body'}`,
        );
      } else {
        fail(
          `HTTP ${res.status} with ${type || 'no content-type'} instead of JSON-RPC: ${clip(sanitizeLine(this.redact(text)), 120) || 'empty body'}`,
        );
      }
    } catch (err) {
      if (!this.closed && !controller.signal.aborted) {
        const reason = networkReason(this.describe, err);
        fail(reason);
        // A server that answered before and now refuses connections has gone away.
        if (this.firstStatus !== undefined && connectionRefused(err)) this.goneAway(reason);
      }
    } finally {
      this.inflight.delete(controller);
      if (this.byId.get(id) === controller) this.byId.delete(id);
    }
  }

  /** HTTP DELETE of the session (MCP transports, session management). */
  private async terminate(): Promise<void> {
    try {
      const res = await httpRequest(this.url, {
        method: 'DELETE',
        headers: this.requestHeaders(),
        signal: AbortSignal.timeout(DELETE_TIMEOUT_MS),
        agent: this.connections.agent,
      });
      await res.body?.cancel();
    } catch {
      /* a server that cannot end the session will show it in the next session's behaviour */
    }
  }

  /** The server stopped taking connections: the session is over, and not by the checker's doing. */
  private goneAway(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const c of this.inflight) c.abort();
    for (const h of this.closeHandlers) h(reason, true);
  }

  abandon(id: unknown): void {
    this.byId.get(id)?.abort();
  }

  /** POSTs a message; redirects are followed only within the URL's origin (see fetchSameOrigin). */
  private async post(message: JsonObject, signal: AbortSignal, id?: unknown): Promise<SameOriginResult> {
    const onSocket =
      id === undefined
        ? undefined
        : (socket: object) => {
            const on = this.connections.numbersOf(socket);
            this.connectionHandler(id, on.connection, on.socket);
          };
    const got = await fetchSameOrigin(this.url, {
      method: 'POST',
      headers: this.requestHeaders(message),
      body: JSON.stringify(message),
      signal,
      agent: this.connections.agent,
      ...(onSocket ? { onSocket } : {}),
    });
    // A permanent move holds for the rest of the session.
    if (got.res && got.movedTo) this.url = got.movedTo;
    return got;
  }

  async close(options: { terminate?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const c of this.inflight) c.abort();
    if ((options.terminate ?? true) && this.sessionId) {
      this.released = true;
      await this.terminate();
    }
    // Its connections close with it (a client that vanishes takes them too).
    this.connections.close();
    for (const h of this.closeHandlers) h('the session was closed');
  }

  async release(): Promise<void> {
    if (!this.closed || !this.sessionId || this.released) return;
    this.released = true;
    await this.terminate();
    this.connections.close();
  }

  /**
   * Once the session ended: one request under its old Mcp-Session-Id (MCP transports, session
   * management: the server answers 404 then). The HTTP status, or why there was none.
   */
  async afterEnd(
    message: JsonObject,
    timeoutMs: number,
  ): Promise<{ status?: number; body?: string; problem?: string } | undefined> {
    // A stateless server gave no id: there is no ended session to send one of.
    if (!this.sessionId) return undefined;
    try {
      const res = await httpRequest(this.url, {
        method: 'POST',
        headers: this.requestHeaders(),
        body: JSON.stringify(message),
        signal: AbortSignal.timeout(timeoutMs),
        agent: this.connections.agent,
      });
      const type = res.headers.get('content-type') ?? '';
      const body = type.includes('json') ? await readCapped(res, 64 * 1024) : (await res.body?.cancel(), undefined);
      return { status: res.status, ...(body !== undefined ? { body: this.redact(body) } : {}) };
    } catch (err) {
      return { problem: networkReason(this.describe, err) };
    } finally {
      this.connections.close();
    }
  }

  /** The user's headers, then the transport's; a 2026-07-28 request also names its method and target. */
  private requestHeaders(message?: JsonObject): Record<string, string> {
    const h: Record<string, string> = {
      ...this.headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    if (this.sessionId) h['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion) h['mcp-protocol-version'] = this.protocolVersion;
    if (this.protocolVersion === MODERN_ERA && message) Object.assign(h, modernHeaders(message));
    return h;
  }

  /** Delivers one message or a batch; true when the request `id` got its answer. */
  private deliver(value: unknown, id: unknown): boolean {
    let answered = false;
    for (const m of Array.isArray(value) ? value : [value]) {
      if (typeof m !== 'object' || m === null || Array.isArray(m)) {
        this.garbageHandler(clip(this.redact(JSON.stringify(m)), 300));
        continue;
      }
      if ((m as JsonObject).id === id && !('method' in m)) answered = true;
      this.messageHandler(m as JsonObject);
    }
    return answered;
  }

  /** A JSON object or batch, or undefined (reported as garbage); too-deep messages are cut and reported. */
  private parse(text: string, quietIfNotJson = false): JsonObject | unknown[] | undefined {
    const { value, problem } = parseMessage(text);
    if (problem && !(quietIfNotJson && value === undefined))
      this.garbageHandler(`${problem}: ${clip(this.redact(text), 300)}`);
    return typeof value === 'object' && value !== null ? (value as JsonObject) : undefined;
  }

  /**
   * Reads a text/event-stream reply: each event's data is one JSON-RPC message (or a batch). The
   * answer is delivered as it comes; the stream is still read to its end, which a server reaches
   * right after it (MCP transports: it SHOULD close the stream then), so that the connection goes
   * back to the pool: cut after the answer, 2 of 3 requests of a run opened a new connection, and
   * the run spent ~7 % of its time on that. One the server keeps open is cut after AFTER_ANSWER_MS.
   * Nothing waits for a request's send() (the answer is what is waited for).
   */
  private async readEvents(res: HttpResponse, id: unknown): Promise<boolean> {
    const body = res.body;
    if (!body) return false;
    let answered = false;
    let cut: NodeJS.Timeout | undefined;
    try {
      await readEventStream(body, this.limits.maxMessageBytes, (event) => {
        if (!event.data) return;
        const parsed = this.parse(event.data);
        if (parsed === undefined || !this.deliver(parsed, id) || answered) return;
        answered = true;
        if (id !== undefined) cut = setTimeout(() => void body.cancel(), AFTER_ANSWER_MS).unref();
      });
    } catch (err) {
      if (err instanceof EventTooLarge) this.garbageHandler(`${TOO_LARGE}: an event stream`);
      // After the answer, a stream cut (by the bound above, or the session's end) is no failure of the request.
      if (!answered) throw err;
    } finally {
      clearTimeout(cut);
    }
    return answered;
  }
}

export { TargetUnavailableError };
