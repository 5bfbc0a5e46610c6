import { TargetUnavailableError, type JsonObject, type Wire } from './types.js';
import { clip, sanitizeLine } from '../text.js';
import { DEFAULT_LIMITS, megabytes, parseMessage, TOO_LARGE, type WireLimits } from './limits.js';
const DELETE_TIMEOUT_MS = 2000;

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

  constructor(private readonly url: URL, private readonly headers: Record<string, string>, private readonly limits: WireLimits = DEFAULT_LIMITS) {
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
      this.problems.push(sanitizeLine(reason));
      if (id !== undefined) this.failHandler(id, reason);
    };
    const controller = new AbortController();
    this.inflight.add(controller);
    try {
      const res = await fetch(this.url, { method: 'POST', headers: this.requestHeaders(), body: JSON.stringify(message), signal: controller.signal });
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
      if (!res.ok) {
        const gone = res.status === 404 && this.sessionId ? ' (the server no longer knows this session)' : '';
        fail(`HTTP ${res.status} ${res.statusText}${gone}: ${clip(sanitizeLine(text), 200) || 'empty body'}`);
      } else {
        fail(`HTTP ${res.status} with ${type || 'no content-type'} instead of JSON-RPC: ${clip(sanitizeLine(text), 120) || 'empty body'}`);
      }
    } catch (err) {
      if (!this.closed) fail(networkReason(this.describe, err));
    } finally {
      this.inflight.delete(controller);
    }
  }

  async close(options: { terminate?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const c of this.inflight) c.abort();
    if ((options.terminate ?? true) && this.sessionId) {
      try {
        const res = await fetch(this.url, { method: 'DELETE', headers: this.requestHeaders(), signal: AbortSignal.timeout(DELETE_TIMEOUT_MS) });
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
        this.garbageHandler(clip(JSON.stringify(m), 300));
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
    if (problem && !(quietIfNotJson && value === undefined)) this.garbageHandler(`${problem}: ${clip(text, 300)}`);
    return typeof value === 'object' && value !== null ? (value as JsonObject) : undefined;
  }

  /** Reads a text/event-stream reply: each event's data lines form one JSON-RPC message. */
  private async readEvents(res: Response, id: unknown): Promise<boolean> {
    if (!res.body) return false;
    const decoder = new TextDecoder();
    let buffer = '';
    let size = 0;
    let answered = false;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > this.limits.maxMessageBytes) {
        this.garbageHandler(`${TOO_LARGE}: an event stream`);
        throw new Error(`the event stream exceeded ${megabytes(this.limits.maxMessageBytes)} (--max-response)`);
      }
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        const data = event.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');
        if (!data) continue;
        const parsed = this.parse(data);
        if (parsed === undefined) continue;
        if (this.deliver(parsed, id)) answered = true;
      }
      // The answer is in: leaving the loop cancels the stream rather than waiting for its end.
      if (answered && id !== undefined) break;
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

function networkReason(where: string, err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (err as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return `cannot connect to ${where}: connection refused (is the server running?)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot resolve the host of ${where}`;
  if ((err as Error).name === 'AbortError') return 'the request was aborted';
  return `the HTTP request failed: ${cause?.message ?? (err as Error).message}`;
}

export { TargetUnavailableError };
