// One MCP session over a Wire: its requests recorded as exchanges (their waiting in
// pending-requests.ts, its opening in session-opening.ts), its end, and the server's going away.
import type { Exchange, JsonObject, Wire } from './types.js';
import { clip, asText } from '../util/text.js';
import type { Redactor } from '../safety/redact.js';
import { LEGACY_ERA, MODERN_ERA, withEnvelope, type Era } from './era.js';
import { exchangeAfterEnd } from './after-end.js';
import { finished, sent } from './exchange-times.js';
import { CLIENT_INFO, describeOpeningFailure, openSession } from './session-opening.js';
import { describeRequest, lastWords, telling } from './server-words.js';
import { PendingRequests } from './pending-requests.js';
import { listAll, type Listing } from './lists.js';

export interface SessionOptions {
  label: string;
  /** Time limit of every request (ms). */
  timeoutMs: number;
  /** Time limit of initialize while the server starts (ms); the request limit when not given. */
  startupTimeoutMs?: number;
  /** The option that set the start-up allowance, as errors name it (default '--startup-timeout'). */
  startupOption?: string;
  /** Masks secrets in everything the server sends, before anything is kept or clipped. */
  redactor?: Redactor;
  /** The protocol era spoken (default 2025-11-25): 2026-07-28 opens with server/discover and sends the envelope. */
  era?: Era;
  /** Told when the server goes away while the session is open (see `lost`). */
  onLost?: (session: McpSession) => void;
  /** Who the session says it is (initialize's clientInfo; the 2026 envelope's); default mcp-pd-check's own. */
  clientInfo?: { name: string; version: string };
}

/** How a session ended: the client terminated it (HTTP DELETE), dropped it, or the server closed it. */
export type SessionEnd = 'terminated' | 'dropped' | 'server';

/** Keeps at most this many garbage lines (non-JSON output) for the report. */
const MAX_GARBAGE = 5;

/**
 * One MCP session, spoken as raw JSON-RPC over a Wire. Every request is recorded as an Exchange
 * with the messages exactly as they travelled (the SDK client would strip unknown fields and drop
 * malformed replies). Requests never throw and never hang: they resolve with a response, or with
 * `noResponse` after the timeout or when the server goes away.
 */
export class McpSession {
  label: string;
  readonly exchanges: Exchange[] = [];
  readonly garbage: string[] = [];
  /** Replies under an id that no request of this session had (bounded). */
  readonly strayReplies: string[] = [];
  /**
   * What the opening request said: initialize's result, or (2026-07-28) server/discover's, with
   * `protocolVersion` and `serverInfo` where initialize has them.
   */
  initializeResult: JsonObject | undefined;
  /** The protocol era this session speaks. */
  readonly era: Era;
  /** When the session started (performance.now()), and when and how it ended. */
  readonly startedAt = performance.now();
  endedAt: number | undefined;
  endedBy: SessionEnd | undefined;
  private nextId = 1;
  private readonly pending: PendingRequests;
  private closedReason: string | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly wire: Wire,
    private readonly options: SessionOptions,
  ) {
    this.label = options.label;
    this.era = options.era ?? LEGACY_ERA;
    this.pending = new PendingRequests(
      wire,
      options.timeoutMs,
      (requestId, reason) => void this.notify('notifications/cancelled', { requestId, reason }),
    );
    if (this.era === MODERN_ERA) wire.setProtocolVersion?.(MODERN_ERA);
    wire.onMessage((m) => this.onMessage(m));
    wire.onGarbage((line) => {
      if (this.garbage.length < MAX_GARBAGE) this.garbage.push(clip(line, 300));
    });
    wire.onClose((reason, lost) => this.onClose(reason, lost));
    wire.onRequestFailed?.((id, reason) => this.failRequest(id, reason));
  }

  get describe(): string {
    return this.wire.describe;
  }
  /** The resident memory of its server process, in MB (over stdio, where /proc tells it). */
  serverResidentMb(): number | undefined {
    return this.wire.residentMb?.();
  }
  /** What its server process's start cost (over stdio, once it answered; src/transport/stdio.ts). */
  serverStartCost(): { cpuMs: number; wallMs: number } | undefined {
    return this.wire.startCost?.();
  }
  /** Whether its server command starts a container (over stdio; src/transport/container-command.ts). */
  serverStartsContainer(): boolean {
    return this.wire.startsContainer ?? false;
  }
  /** Time limit of its requests (ms). */
  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  /** Names the session for transcripts (a warmed-up spare gets its name when a check takes it). */
  relabel(label: string): void {
    this.label = label;
    for (const ex of this.exchanges) ex.session = label;
  }
  get closed(): string | undefined {
    return this.closedReason;
  }
  /**
   * Over Streamable HTTP, its next requests go on `other`'s connection, one keep-alive socket for
   * both sessions (as a client's pooled agent sends them); false where sessions have no such thing.
   */
  joinConnectionsOf(other: McpSession): boolean {
    return this.wire.joinConnections?.(other.wire) ?? false;
  }
  /**
   * Over HTTP, its next requests go on new connections (a grant belongs to the session, not to a connection); a process
   * has none.
   */
  renewConnections(): boolean {
    if (!this.wire.renewConnections) return false;
    this.wire.renewConnections();
    return true;
  }
  /**
   * Over HTTP, opens new connections for `count` requests about to be sent together (a request on a connection opened
   * later arrives later).
   */
  async openConnections(count: number): Promise<void> {
    await this.wire.openConnections?.(count, this.options.timeoutMs);
  }
  /**
   * Set when the server went away while the session was open (its process exited, its HTTP
   * server stopped taking connections), not closed by the checker: why, with its last words.
   */
  lost: { reason: string; at: number; after?: string } | undefined;
  stderrTail(): string[] {
    return this.wire.stderrTail();
  }

  /** Sends a request and resolves with the recorded exchange (never rejects). */
  request(method: string, params?: JsonObject, timeoutMs = this.options.timeoutMs, startup = false): Promise<Exchange> {
    const id = this.nextId++;
    const request: JsonObject = { jsonrpc: '2.0', id, method };
    if (this.era === MODERN_ERA) request.params = withEnvelope(params, this.options.clientInfo ?? CLIENT_INFO);
    else if (params !== undefined) request.params = params;
    const exchange: Exchange = { session: this.label, method, request, durationMs: 0, era: this.era };
    this.exchanges.push(exchange);
    const started = performance.now();
    sent(exchange, started);
    if (this.closedReason) {
      exchange.noResponse = 'closed';
      exchange.note = this.closedReason;
      finished(exchange);
      return Promise.resolve(exchange);
    }
    const answered = this.pending.wait(exchange, started, timeoutMs, startup && !this.heard);
    void this.wire.send(request);
    return answered;
  }

  notify(method: string, params?: JsonObject): Promise<void> {
    const message: JsonObject = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    return this.wire.send(message);
  }

  /**
   * The MCP handshake. Starting a server is not a request: initialize waits the start-up
   * allowance until the server says anything, then the request limit. Throws
   * TargetUnavailableError when the server does not complete it.
   */
  async initialize(
    timeoutMs = this.options.startupTimeoutMs ?? this.options.timeoutMs,
    since = performance.now(),
  ): Promise<JsonObject> {
    this.connectingSince = since;
    this.initializeResult = await openSession({
      era: this.era,
      clientInfo: this.options.clientInfo ?? CLIENT_INFO,
      request: (method, params) => this.request(method, params, timeoutMs, true),
      notify: (method) => this.notify(method),
      firstStatus: () => this.wire.firstStatus,
      setProtocolVersion: (version) => this.wire.setProtocolVersion?.(version),
      failure: (ex) => this.describeInitFailure(ex),
    });
    return this.initializeResult;
  }

  readResource(uri: string): Promise<Exchange> {
    return this.request('resources/read', { uri });
  }

  /**
   * A tools/call. `untilProgress`: the call carries a progress token (its request id), and once
   * the server reports progress on it the call has reached its tool — it may run for minutes (a
   * long operation): the result is awaited PROGRESS_GRACE_MS more, then the call is cancelled and
   * resolves with `noResponse: 'cancelled'` and the `progress` notification as its proof.
   */
  callTool(name: string, args: JsonObject, untilProgress = false): Promise<Exchange> {
    const params: JsonObject = { name, arguments: args };
    if (untilProgress) {
      params._meta = { progressToken: this.nextId };
      this.pending.watch(this.nextId);
    }
    return this.request('tools/call', params);
  }

  /**
   * Follows `nextCursor` to the end: every item and every page's exchange; `problem` says why it stopped early (error,
   * timeout, cursor loop).
   */
  listAll(method: string, key: string): Promise<Listing> {
    return listAll(this, method, key);
  }

  /**
   * Over Streamable HTTP, once this session was terminated: a tools/list under its old id, recorded
   * with the HTTP status it got (the model expects 404). Undefined over other transports.
   */
  async requestAfterEnd(): Promise<Exchange | undefined> {
    if (!this.wire.afterEnd || this.endedBy !== 'terminated') return undefined;
    const request: JsonObject = { jsonrpc: '2.0', id: this.nextId, method: 'tools/list' };
    const sentAt = performance.now();
    const got = await this.wire.afterEnd(request, this.options.timeoutMs);
    if (!got) return undefined;
    this.nextId++;
    const exchange = exchangeAfterEnd(this.label, request, sentAt, got);
    this.exchanges.push(exchange);
    return exchange;
  }

  /** Ends the session; `terminate: false` drops it without telling the server (no HTTP DELETE). */
  close(options?: { terminate?: boolean }): Promise<void> {
    if (this.endedAt === undefined) {
      this.endedAt = performance.now();
      this.endedBy = options?.terminate === false ? 'dropped' : 'terminated';
    }
    this.closing ??= this.wire.close(options);
    return this.closing;
  }

  /** Once nothing more is observed (the run's end): a session dropped is ended on the server's side too. */
  async release(): Promise<void> {
    await this.closing;
    if (this.endedBy === 'dropped') await this.wire.release?.();
  }

  private describeInitFailure(ex: Exchange): string {
    return describeOpeningFailure(ex, {
      // Only a process has a stderr; an HTTP wire's problems are already the note.
      ...(this.wire.stderrCount ? { stderr: this.wire.stderrTail() } : {}),
      garbage: this.garbage,
      strayReplies: this.strayReplies,
      timeoutMs: this.options.timeoutMs,
      startupTimeoutMs: this.options.startupTimeoutMs,
      startupOption: this.options.startupOption,
      connectingSince: this.connectingSince,
      heard: this.heard,
    });
  }

  /** Whether the server has sent any JSON-RPC message yet (then it has started). */
  private get heard(): boolean {
    return this.heardAt !== undefined;
  }

  private heardAt: number | undefined;
  /** When the connection attempt that led to this session's initialize began. */
  private connectingSince: number | undefined;

  /** The server spoke: requests still waiting on the start-up allowance now get the request limit. */
  private started(): void {
    if (this.heard) return;
    this.heardAt = performance.now();
    this.pending.serverSpoke(this.heardAt);
  }

  private onMessage(received: JsonObject): void {
    this.started();
    const message = this.options.redactor ? this.options.redactor.value(received) : received;
    const hasId = 'id' in message && message.id !== null && message.id !== undefined;
    if (hasId && typeof message.method === 'string') {
      // A request from the server (ping, roots/list…): we offer no client features.
      const reply =
        message.method === 'ping'
          ? { jsonrpc: '2.0', id: message.id, result: {} }
          : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } };
      void this.wire.send(reply);
      return;
    }
    if (!hasId) {
      // Notifications (logging…) are not part of any exchange; progress on a watched call is.
      if (message.method === 'notifications/progress') this.pending.progress(message);
      return;
    }
    // A late reply (its request timed out) is normal; one under an id never sent is not.
    if (!this.pending.answer(message) && !this.wasSent(message.id) && this.strayReplies.length < MAX_GARBAGE) {
      this.strayReplies.push(clip(JSON.stringify(message), 200));
    }
  }

  /** Request ids run 1, 2, 3…: an id was sent when it is one of those (compared as text, as pending is). */
  private wasSent(id: unknown): boolean {
    const key = asText(id);
    return /^[1-9]\d*$/.test(key) && Number(key) < this.nextId;
  }

  private failRequest(id: unknown, failure: string): void {
    this.pending.fail(id, this.options.redactor?.text(failure) ?? failure);
  }

  private onClose(why: string, lost = false): void {
    const reason = this.options.redactor?.text(why) ?? why;
    this.closedReason = reason;
    const byServer = this.endedAt === undefined;
    if (byServer) {
      this.endedAt = performance.now();
      this.endedBy = 'server';
    }
    const said = telling(this.wire.stderrTail());
    const note = said ? `${reason}; it said on stderr: "${clip(said, 200)}"` : reason;
    if (lost && byServer) {
      const last = this.exchanges.filter((ex) => ex.method !== 'initialize' && ex.method !== 'server/discover').pop();
      // A process has last words on stderr; an HTTP server has none to give.
      const words = this.wire.stderrCount ? lastWords(reason, this.wire.stderrTail()) : reason;
      this.lost = { reason: words, at: this.endedAt!, ...(last ? { after: describeRequest(last) } : {}) };
      this.options.onLost?.(this);
    }
    this.pending.closeAll(note);
  }
}
