import { TargetUnavailableError, type JsonObject, type Wire } from './types.js';
import { clip, sanitizeLine } from '../text.js';
import { DEFAULT_LIMITS, megabytes, parseMessage, TOO_LARGE, type WireLimits } from './limits.js';
import { EventTooLarge, readEventStream } from './event-stream.js';
const DELETE_TIMEOUT_MS = 2000;
/** Same-origin redirects followed for one request before giving up (a loop). */
const MAX_REDIRECTS = 5;

/** The URL as shown in reports: no user:password, and query values (often API keys) hidden. */
export function displayUrl(url: URL): string {
  const shown = new URL(url.href);
  shown.username = '';
  shown.password = '';
  for (const key of [...shown.searchParams.keys()]) shown.searchParams.set(key, 'REDACTED');
  return shown.href;
}

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
  private closeHandlers: Array<(reason: string) => void> = [];
  private readonly inflight = new Set<AbortController>();
  private readonly problems: string[] = [];
  private closed = false;

  /** Where requests go: the given URL, or where a same-origin permanent redirect moved it. */
  private url: URL;

  constructor(url: URL, private readonly headers: Record<string, string>, private readonly limits: WireLimits = DEFAULT_LIMITS, private readonly redact: (text: string) => string = (t) => t) {
    this.url = url;
    this.describe = displayUrl(url);
  }

  onMessage(handler: (m: JsonObject) => void): void { this.messageHandler = handler; }
  onGarbage(handler: (t: string) => void): void { this.garbageHandler = handler; }
  onRequestFailed(handler: (id: unknown, reason: string) => void): void { this.failHandler = handler; }
  onClose(handler: (reason: string) => void): void { this.closeHandlers.push(handler); }
  setProtocolVersion(version: string): void { this.protocolVersion = version; }
  stderrTail(): string[] { return this.problems.slice(-20); }

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
    try {
      const posted = await this.post(JSON.stringify(message), controller.signal);
      if (posted.refused !== undefined) {
        fail(posted.refused);
        return;
      }
      const res = posted.res;
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
        fail(unauthorized(res, this.url));
      } else if (!res.ok) {
        const gone = res.status === 404 && this.sessionId ? ' (the server no longer knows this session)' : '';
        fail(`HTTP ${res.status} ${res.statusText}${gone}: ${clip(sanitizeLine(this.redact(text)), 200) || 'empty body'}`);
      } else {
        fail(`HTTP ${res.status} with ${type || 'no content-type'} instead of JSON-RPC: ${clip(sanitizeLine(this.redact(text)), 120) || 'empty body'}`);
      }
    } catch (err) {
      if (!this.closed) fail(networkReason(this.describe, err));
    } finally {
      this.inflight.delete(controller);
    }
  }

  /**
   * POSTs a message, following redirects only within the URL's origin: the user's headers (API
   * keys, cookies) must never reach another origin, and Node's fetch would strip only
   * Authorization and Cookie. A redirect elsewhere is refused with a reason that names it.
   */
  private async post(body: string, signal: AbortSignal): Promise<{ res: Response; refused?: undefined } | { res?: undefined; refused: string }> {
    let url = this.url;
    for (let hop = 0; ; hop++) {
      const res = await fetch(url, { method: 'POST', headers: this.requestHeaders(), body, signal, redirect: 'manual' });
      if (res.status < 300 || res.status > 399 || res.status === 304) return { res };
      await res.body?.cancel();
      const location = res.headers.get('location');
      if (!location) return { refused: `HTTP ${res.status} redirect without a Location header` };
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return { refused: `HTTP ${res.status} redirect to an invalid URL: ${clip(sanitizeLine(location), 120)}` };
      }
      if (next.origin !== this.url.origin) {
        return { refused: `the server redirected (HTTP ${res.status}) to ${displayUrl(next)}, another origin; mcp-pd-check never sends your headers to another origin, so it stopped — if you trust that server, pass --url ${displayUrl(next)}` };
      }
      if (hop >= MAX_REDIRECTS) return { refused: `more than ${MAX_REDIRECTS} redirects (the last to ${displayUrl(next)})` };
      // A permanent move holds for the rest of the session.
      if (res.status === 301 || res.status === 308) this.url = next;
      url = next;
    }
  }

  async close(options: { terminate?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const c of this.inflight) c.abort();
    if ((options.terminate ?? true) && this.sessionId) {
      try {
        const res = await fetch(this.url, { method: 'DELETE', headers: this.requestHeaders(), signal: AbortSignal.timeout(DELETE_TIMEOUT_MS), redirect: 'manual' });
        await res.body?.cancel();
      } catch {
        /* a server that cannot end the session will show it in the next session's behaviour */
      }
    }
    for (const h of this.closeHandlers) h('the session was closed');
  }

  private requestHeaders(): Record<string, string> {
    const h: Record<string, string> = { ...this.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (this.sessionId) h['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion) h['mcp-protocol-version'] = this.protocolVersion;
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
    if (problem && !(quietIfNotJson && value === undefined)) this.garbageHandler(`${problem}: ${clip(this.redact(text), 300)}`);
    return typeof value === 'object' && value !== null ? (value as JsonObject) : undefined;
  }

  /** Reads a text/event-stream reply: each event's data is one JSON-RPC message (or a batch). */
  private async readEvents(res: Response, id: unknown): Promise<boolean> {
    if (!res.body) return false;
    let answered = false;
    try {
      await readEventStream(res.body, this.limits.maxMessageBytes, (event) => {
        if (!event.data) return false;
        const parsed = this.parse(event.data);
        if (parsed !== undefined && this.deliver(parsed, id)) answered = true;
        // The answer is in: stop reading rather than wait for the stream's end.
        return answered && id !== undefined;
      });
    } catch (err) {
      if (err instanceof EventTooLarge) this.garbageHandler(`${TOO_LARGE}: an event stream`);
      throw err;
    }
    return answered;
  }
}

/** The body as text, or undefined when it is larger than `max` bytes (read no further). */
async function readCapped(res: Response, max: number): Promise<string | undefined> {
  if (Number(res.headers.get('content-length') ?? 0) > max) {
    await res.body?.cancel();
    return undefined;
  }
  if (!res.body) return '';
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > max) return undefined; // leaving the loop cancels the stream
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * A 401 names what the server asked for — its WWW-Authenticate scheme and any URL in it (an
 * authorization server, resource metadata) — and says that nothing was fetched from there.
 */
function unauthorized(res: Response, url: URL): string {
  const challenge = res.headers.get('www-authenticate');
  const scheme = challenge ? /^\s*([\w-]+)/.exec(challenge)?.[1] : undefined;
  const named = challenge ? [...challenge.matchAll(/"(https?:\/\/[^"\s]+)"|(https?:\/\/[^\s",]+)/g)].map((m) => m[1] ?? m[2]!) : [];
  const where = named.map((u) => {
    let origin = '';
    try {
      origin = new URL(u).origin === url.origin ? ' (this origin)' : ' (another origin)';
    } catch { /* shown as given */ }
    return `${clip(sanitizeLine(u), 160)}${origin}`;
  });
  const asked = scheme ? `; it asks for ${clip(sanitizeLine(scheme), 40)} credentials` : '';
  const pointed = where.length ? ` and points to ${where.join(', ')}, which mcp-pd-check did not contact` : '';
  return `HTTP 401 Unauthorized: the server requires authorization${asked}${pointed}; pass credentials with --header 'Authorization: Bearer $TOKEN'`;
}

function networkReason(where: string, err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (err as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return `cannot connect to ${where}: connection refused (is the server running?)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot resolve the host of ${where}`;
  if ((err as Error).name === 'AbortError') return 'the request was aborted';
  return `the HTTP request failed: ${cause?.message ?? (err as Error).message}`;
}

export { TargetUnavailableError };
