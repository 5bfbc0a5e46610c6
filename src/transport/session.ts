import type { Exchange, JsonObject, Wire } from './types.js';
import { SlowStartError, TargetUnavailableError } from './types.js';
import { clip, asText } from '../util/text.js';
import { TOOL_VERSION } from '../util/version.js';
import type { Redactor } from '../safety/redact.js';
import { LEGACY_ERA, META, MODERN_ERA, withEnvelope, type Era } from './era.js';
import { finished, sent, sentAfterEnd, timesOf } from './exchange-times.js';
import { describeRequest, lastWords, seconds, telling } from './server-words.js';
import { listAll, type Listing } from './lists.js';

/**
 * The protocol version the checker asks for. Kept here rather than imported from the SDK's types
 * module, whose load costs ~0.2 s of every run; a test keeps it equal to the SDK's latest.
 */
export const PROTOCOL_VERSION = LEGACY_ERA;

/** How the checker names itself to servers. */
const CLIENT_INFO = { name: 'mcp-pd-check', version: TOOL_VERSION };

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

/**
 * The server answered the opening request (initialize, server/discover) with an error, or said it
 * does not speak the era: the target is up, it speaks another era.
 */
export class EraRefusedError extends TargetUnavailableError {
  override name = 'EraRefusedError';
}

/**
 * The server failed the opening request with an HTTP server error (5xx) or 429: it may well speak
 * the era, it could not answer now (a JSON-RPC error in such a response is no refusal of the era).
 */
export class ServerFailedError extends TargetUnavailableError {
  override name = 'ServerFailedError';
}


/** How a session ended: the client terminated it (HTTP DELETE), dropped it, or the server closed it. */
export type SessionEnd = 'terminated' | 'dropped' | 'server';

/** How long a call that reported progress may still take to answer before it is cancelled (ms). */
export const PROGRESS_GRACE_MS = 300;

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
  private readonly pending = new Map<string, Pending>();
  private closedReason: string | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly wire: Wire, private readonly options: SessionOptions) {
    this.label = options.label;
    this.era = options.era ?? LEGACY_ERA;
    if (this.era === MODERN_ERA) wire.setProtocolVersion?.(MODERN_ERA);
    wire.onMessage((m) => this.onMessage(m));
    wire.onGarbage((line) => {
      if (this.garbage.length < MAX_GARBAGE) this.garbage.push(clip(line, 300));
    });
    wire.onClose((reason, lost) => this.onClose(reason, lost));
    wire.onRequestFailed?.((id, reason) => this.failRequest(id, reason));
  }

  get describe(): string { return this.wire.describe; }

  /** Names the session for transcripts (a warmed-up spare gets its name when a check takes it). */
  relabel(label: string): void {
    this.label = label;
    for (const ex of this.exchanges) ex.session = label;
  }
  get closed(): string | undefined { return this.closedReason; }
  /** Over HTTP, its next requests go on new connections (a grant belongs to the session, not to a connection); a process has none. */
  renewConnections(): boolean {
    if (!this.wire.renewConnections) return false;
    this.wire.renewConnections();
    return true;
  }
  /** Over HTTP, opens new connections for `count` requests about to be sent together (a request on a connection opened later arrives later). */
  async openConnections(count: number): Promise<void> {
    await this.wire.openConnections?.(count, this.options.timeoutMs);
  }
  /**
   * Set when the server went away while the session was open (its process exited, its HTTP
   * server stopped taking connections), not closed by the checker: why, with its last words.
   */
  lost: { reason: string; at: number; after?: string } | undefined;
  stderrTail(): string[] { return this.wire.stderrTail(); }

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
    return new Promise((resolve) => {
      const key = asText(id);
      const entry: Pending = { exchange, started, resolve, limitMs: timeoutMs, stderrMark: this.wire.stderrCount?.() ?? 0, startup: startup && !this.heard, timer: setTimeout(() => this.expire(key), timeoutMs) };
      this.pending.set(key, entry);
      void this.wire.send(request);
    });
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
    entry.timer = setTimeout(() => {
      if (this.pending.get(key) !== entry) return;
      this.pending.delete(key);
      // Bounded whatever keeps arriving: a stream of keep-alives for this request is cut here.
      this.wire.abandon?.(entry.exchange.request.id);
      entry.exchange.noResponse = 'timeout';
      entry.exchange.durationMs = Math.round(waited);
      entry.exchange.note = note;
      finished(entry.exchange);
      entry.resolve(entry.exchange);
    }, this.wire.alive !== undefined ? EXIT_GRACE_MS : 0);
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
    const said = last === undefined ? 'wrote nothing on stderr meanwhile'
      : `wrote ${lines === 1 ? 'one line' : `${lines} lines`} on stderr meanwhile, the last: "${clip(last, 160)}"`;
    return `${base}; the server process had been running for ${seconds(alive)} and ${said}`;
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
  async initialize(timeoutMs = this.options.startupTimeoutMs ?? this.options.timeoutMs, since = performance.now()): Promise<JsonObject> {
    this.connectingSince = since;
    if (this.era === MODERN_ERA) return this.discover(timeoutMs);
    const ex = await this.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: this.options.clientInfo ?? CLIENT_INFO,
    }, timeoutMs, true);
    const result = ex.response?.result;
    if (!result || typeof result !== 'object') {
      throw ex.noResponse === 'timeout' ? new SlowStartError(this.describeInitFailure(ex)) : this.openingError(this.describeInitFailure(ex), ex.response?.error !== undefined);
    }
    this.initializeResult = result as JsonObject;
    const version = (result as JsonObject).protocolVersion;
    if (typeof version === 'string') this.wire.setProtocolVersion?.(version);
    await this.notify('notifications/initialized');
    return this.initializeResult;
  }

  /** Why the opening request failed, as its error: a refusal of the era, a server that failed (HTTP 5xx, 429), or none there. */
  private openingError(error: string, refused: boolean): TargetUnavailableError {
    const status = this.wire.firstStatus;
    if (status !== undefined && (status >= 500 || status === 429)) return new ServerFailedError(error.includes(`HTTP ${status}`) ? error : `${error} (HTTP ${status})`);
    return refused ? new EraRefusedError(error) : new TargetUnavailableError(error);
  }

  /**
   * The opening of a 2026-07-28 client: server/discover, which must list 2026-07-28 among its
   * supported versions. Nothing else is sent first, and there is no session to end.
   */
  private async discover(timeoutMs: number): Promise<JsonObject> {
    const ex = await this.request('server/discover', {}, timeoutMs, true);
    const result = ex.response?.result as JsonObject | undefined;
    if (!result || typeof result !== 'object') {
      if (ex.noResponse === 'timeout' && this.wire.firstStatus === undefined) throw new SlowStartError(this.describeInitFailure(ex));
      // Over HTTP a server of the other era may answer with a plain 4xx (401/403 are about credentials),
      // or fail on a method it does not know (500): that is its not speaking this era. A 503 or 429
      // (no room, too many requests) says nothing of the era: the run cannot check it now.
      const status = this.wire.firstStatus;
      if (status === 500 || status === 501) throw new EraRefusedError(`${this.describeInitFailure(ex)} (HTTP ${status} to server/discover: a server that does not know the method)`);
      throw this.openingError(this.describeInitFailure(ex), ex.response?.error !== undefined || (status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403));
    }
    const versions = Array.isArray(result.supportedVersions) ? result.supportedVersions : [];
    if (!versions.includes(MODERN_ERA)) {
      throw new EraRefusedError(`the server answered server/discover without ${MODERN_ERA} among its supportedVersions (${versions.map(String).join(', ') || 'none'})`);
    }
    const meta = typeof result._meta === 'object' && result._meta !== null ? result._meta as JsonObject : {};
    const serverInfo = meta[META.serverInfo] ?? result.serverInfo;
    this.initializeResult = { ...result, protocolVersion: MODERN_ERA, ...(serverInfo !== undefined ? { serverInfo } : {}) };
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
      this.watchProgress.add(asText(this.nextId));
    }
    return this.request('tools/call', params);
  }

  /** Request ids whose progress token is their id (calls sent `untilProgress`). */
  private readonly watchProgress = new Set<string>();

  /** The server reported progress on a call it was asked to: the call reached its tool. */
  private onProgress(message: JsonObject): void {
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
      void this.notify('notifications/cancelled', { requestId: entry.exchange.request.id as number, reason: 'The call reported progress: it reached the tool, which is all the checker needed to know.' });
      // Over HTTP its stream is cut too: a server may go on streaming progress.
      this.wire.abandon?.(entry.exchange.request.id);
      const waited = performance.now() - entry.started;
      entry.exchange.noResponse = 'cancelled';
      entry.exchange.durationMs = Math.round(waited);
      entry.exchange.note = `it reached the tool: the server reported progress on it, and the checker cancelled it after ${seconds(waited)}`;
      finished(entry.exchange);
      entry.resolve(entry.exchange);
    }, PROGRESS_GRACE_MS);
  }

  /**
   * Follows `nextCursor` to the end. Returns every item and every page's exchange;
   * `problem` says why it stopped early (error, timeout, cursor loop).
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
    const exchange: Exchange = { session: this.label, method: 'tools/list', request, durationMs: 0 };
    const sentAt = performance.now();
    const got = await this.wire.afterEnd(request, this.options.timeoutMs);
    if (!got) return undefined;
    this.nextId++;
    exchange.durationMs = Math.round(performance.now() - sentAt);
    exchange.note = got.status !== undefined ? `sent with the Mcp-Session-Id of the session it ended: HTTP ${got.status}` : `sent with the Mcp-Session-Id of the session it ended: ${got.problem}`;
    if (got.body) {
      try {
        const parsed = JSON.parse(got.body) as unknown;
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) exchange.response = parsed as JsonObject;
      } catch { /* the note says what came */ }
    }
    if (!exchange.response) exchange.noResponse = 'closed';
    sentAfterEnd(exchange, sentAt, got.status);
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
    // Only a process has a stderr; an HTTP wire's problems are already the note. A proxy's own lines
    // (mcp-pd-check serve) are not the server's words.
    const said = this.wire.stderrCount ? telling(this.wire.stderrTail().filter((l) => !/^mcp-pd-check serve:/.test(l))) : undefined;
    const last = said && !ex.note?.includes('it said on stderr') ? `; it said on stderr: "${clip(said, 200)}"` : '';
    const garbage = this.garbage.length ? `; it wrote non-JSON to stdout: "${clip(this.garbage[0]!, 120)}"`
      : this.strayReplies.length ? `; it answered under an id that no request had: ${clip(this.strayReplies[0]!, 120)}` : '';
    const opening = ex.method;
    if (ex.noResponse === 'closed') return `no answer to ${opening}: ${ex.note}${last}${garbage}`;
    if (ex.noResponse === 'timeout') {
      // The time really waited: this request's limit, plus what the connection attempt had spent
      // before it (starting the wire, another transport tried first).
      const limit = Number(ex.note?.match(/(\d+) ms/)?.[1] ?? this.options.timeoutMs);
      const before = Math.max(0, (timesOf(ex)?.sent ?? 0) - (this.connectingSince ?? Infinity));
      // The configured limit is said as configured (a start-up allowance covers the whole connection
      // attempt); time spent before a request's own limit is said apart, so the message never
      // depends on the machine's speed except in the part that measures it.
      const starting = this.options.startupTimeoutMs !== undefined && this.heardAt === undefined;
      const allowance = starting ? ` (${this.options.startupOption ?? '--startup-timeout'})` : '';
      const within = starting ? this.options.startupTimeoutMs! : limit;
      const earlier = !starting && before >= 100 ? `; ${Math.round(before)} ms had gone to connecting before it` : '';
      const said = ex.note?.match(/ and (wrote .*)$/)?.[1];
      return `the server did not answer ${opening} within ${within} ms${allowance}${said ? `; it ${said}` : ''}${garbage}${said ? '' : last}${earlier}`;
    }
    const error = ex.response?.error as JsonObject | undefined;
    if (error) return `the server refused ${opening}: ${clip(asText(error.message ?? JSON.stringify(error)), 200)}`;
    return `the server answered ${opening} without a result object`;
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
    for (const [key, entry] of this.pending) {
      if (!entry.startup || entry.expired) continue;
      entry.startup = false;
      const left = entry.started + entry.limitMs - this.heardAt;
      if (left <= this.options.timeoutMs) continue;
      clearTimeout(entry.timer);
      entry.limitMs = this.heardAt - entry.started + this.options.timeoutMs;
      entry.timer = setTimeout(() => this.expire(key), this.options.timeoutMs);
    }
  }

  private onMessage(received: JsonObject): void {
    this.started();
    const message = this.options.redactor ? this.options.redactor.value(received) : received;
    const hasId = 'id' in message && message.id !== null && message.id !== undefined;
    if (hasId && typeof message.method === 'string') {
      // A request from the server (ping, roots/list…): we offer no client features.
      const reply = message.method === 'ping'
        ? { jsonrpc: '2.0', id: message.id, result: {} }
        : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } };
      void this.wire.send(reply);
      return;
    }
    if (!hasId) {
      // Notifications (logging…) are not part of any exchange; progress on a watched call is.
      if (message.method === 'notifications/progress') this.onProgress(message);
      return;
    }
    const entry = this.pending.get(asText(message.id));
    if (!entry || entry.expired) {
      // A late reply (its request timed out) is normal; one under an id never sent is not.
      if (!this.wasSent(message.id) && this.strayReplies.length < MAX_GARBAGE) {
        this.strayReplies.push(clip(JSON.stringify(message), 200));
      }
      return;
    }
    this.pending.delete(asText(message.id));
    clearTimeout(entry.timer);
    entry.exchange.response = message;
    entry.exchange.durationMs = Math.round(performance.now() - entry.started);
    finished(entry.exchange);
    entry.resolve(entry.exchange);
  }

  /** Request ids run 1, 2, 3…: an id was sent when it is one of those (compared as text, as pending is). */
  private wasSent(id: unknown): boolean {
    const key = asText(id);
    return /^[1-9]\d*$/.test(key) && Number(key) < this.nextId;
  }

  private failRequest(id: unknown, failure: string): void {
    const reason = this.options.redactor?.text(failure) ?? failure;
    const entry = this.pending.get(asText(id));
    if (!entry) return;
    this.pending.delete(asText(id));
    clearTimeout(entry.timer);
    entry.exchange.noResponse = 'closed';
    entry.exchange.note = reason;
    entry.exchange.durationMs = Math.round(performance.now() - entry.started);
    finished(entry.exchange);
    entry.resolve(entry.exchange);
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
    for (const [id, entry] of this.pending) {
      this.pending.delete(id);
      clearTimeout(entry.timer);
      entry.exchange.noResponse = 'closed';
      entry.exchange.note = note;
      entry.exchange.durationMs = Math.round(performance.now() - entry.started);
      finished(entry.exchange);
      entry.resolve(entry.exchange);
    }
  }
}
