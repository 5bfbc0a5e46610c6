import { TargetUnavailableError, type JsonObject, type Wire } from './types.js';
import { clip, sanitizeLine } from '../util/text.js';
import { DEFAULT_LIMITS, parseMessage, TOO_LARGE, type WireLimits } from './limits.js';
import { EventTooLarge, readEventStream } from './event-stream.js';
import { displayUrl, fetchSameOrigin, networkReason, readCapped, unauthorized } from './http-common.js';

/**
 * One MCP session over the 2024-11-05 HTTP+SSE transport, as clients speak it: GET the URL for an
 * event stream, whose first `endpoint` event names where to POST; every reply comes back on the
 * stream. One stream is one session; closing it ends the session. The endpoint must be on the
 * URL's origin (the user's headers go there too).
 */
export class SseWire implements Wire {
  readonly describe: string;
  private messageHandler: (m: JsonObject) => void = () => {};
  private garbageHandler: (t: string) => void = () => {};
  private failHandler: (id: unknown, reason: string) => void = () => {};
  private closeHandlers: Array<(reason: string) => void> = [];
  private readonly problems: string[] = [];
  private readonly stream = new AbortController();
  /**
   * Each POST's own signal: the stream's end aborts them all through one listener (one per request on the stream's
   * signal passed Node's limit of 10).
   */
  private readonly posts = new Set<AbortController>();
  private closedReason: string | undefined;

  private constructor(
    private readonly url: URL,
    private readonly endpoint: URL,
    private readonly headers: Record<string, string>,
    private readonly redact: (text: string) => string,
  ) {
    this.describe = displayUrl(url);
    this.stream.signal.addEventListener(
      'abort',
      () => {
        for (const post of this.posts) post.abort();
      },
      { once: true },
    );
  }

  /**
   * Opens the event stream and waits (at most `timeoutMs`) for the endpoint event. Throws
   * TargetUnavailableError with one line that says why when there is no usable stream.
   */
  static async connect(
    url: URL,
    headers: Record<string, string>,
    timeoutMs: number,
    limits: WireLimits = DEFAULT_LIMITS,
    redact: (text: string) => string = (t) => t,
  ): Promise<SseWire> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let got;
    try {
      got = await fetchSameOrigin(url, {
        method: 'GET',
        headers: { ...headers, accept: 'text/event-stream' },
        signal: controller.signal,
      });
    } catch (err) {
      clearTimeout(timer);
      throw new TargetUnavailableError(
        controller.signal.aborted
          ? `no event stream from ${displayUrl(url)} within ${timeoutMs} ms`
          : networkReason(displayUrl(url), err),
      );
    }
    if (got.refused !== undefined) {
      clearTimeout(timer);
      throw new TargetUnavailableError(redact(got.refused));
    }
    const res = got.res;
    const type = res.headers.get('content-type') ?? '';
    if (res.status === 401) throw new TargetUnavailableError(unauthorized(res, url, headers));
    if (!res.ok || !type.includes('text/event-stream') || !res.body) {
      clearTimeout(timer);
      const body = (await readCapped(res, 4096).catch(() => '')) ?? '';
      throw new TargetUnavailableError(
        `GET ${displayUrl(url)} for an SSE stream got HTTP ${res.status} ${type || 'without a content-type'}: ${clip(sanitizeLine(redact(body)), 120) || 'empty body'}`,
      );
    }
    let wire: SseWire | undefined;
    let announced: (endpoint: URL | string) => void = () => {};
    const endpoint = new Promise<URL | string>((resolve) => {
      announced = resolve;
    });
    const reading = readEventStream(res.body, limits.maxMessageBytes, (event) => {
      if (!wire) {
        if (event.event !== 'endpoint') return false;
        let target: URL;
        try {
          target = new URL(event.data.trim(), url);
        } catch {
          announced(`the endpoint event names an invalid URL: ${clip(sanitizeLine(event.data), 120)}`);
          return true;
        }
        if (target.origin !== url.origin) {
          announced(
            `the endpoint event names ${displayUrl(target)}, another origin; mcp-pd-check never sends your headers to another origin`,
          );
          return true;
        }
        announced(target);
        return false;
      }
      wire.onEvent(event.event, event.data);
      return false;
    });
    reading
      .then(
        () => wire?.markClosed('the server ended its event stream'),
        (err: unknown) => {
          if (err instanceof EventTooLarge) wire?.garbageHandler(`${TOO_LARGE}: an event stream`);
          wire?.markClosed(err instanceof EventTooLarge ? err.message : 'the event stream broke');
        },
      )
      .finally(() => announced('the event stream ended before it named an endpoint'));
    controller.signal.addEventListener('abort', () => announced(`no endpoint event within ${timeoutMs} ms`));
    const named = await endpoint;
    clearTimeout(timer);
    if (typeof named === 'string') {
      controller.abort();
      throw new TargetUnavailableError(redact(named));
    }
    wire = new SseWire(url, named, headers, redact);
    // From now on the stream lives as long as the session: its own abort ends it.
    wire.stream.signal.addEventListener('abort', () => controller.abort());
    return wire;
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
  onClose(handler: (reason: string) => void): void {
    if (this.closedReason) handler(this.closedReason);
    else this.closeHandlers.push(handler);
  }
  stderrTail(): string[] {
    return this.problems.slice(-20);
  }

  async send(message: JsonObject): Promise<void> {
    if (this.closedReason) return;
    const id = 'id' in message && 'method' in message ? message.id : undefined;
    const fail = (reason: string) => {
      const safe = this.redact(reason);
      this.problems.push(sanitizeLine(safe));
      if (id !== undefined) this.failHandler(id, safe);
    };
    const post = new AbortController();
    this.posts.add(post);
    try {
      const got = await fetchSameOrigin(this.endpoint, {
        method: 'POST',
        headers: { ...this.headers, 'content-type': 'application/json' },
        body: JSON.stringify(message),
        signal: post.signal,
      });
      if (got.refused !== undefined) return fail(got.refused);
      const res = got.res;
      const text = (await readCapped(res, 64 * 1024)) ?? '';
      if (res.status === 401) return fail(unauthorized(res, this.url, this.headers));
      if (!res.ok)
        fail(
          `HTTP ${res.status} ${res.statusText} from the message endpoint: ${clip(sanitizeLine(this.redact(text)), 200) || 'empty body'}`,
        );
    } catch (err) {
      if (!this.closedReason) fail(networkReason(this.describe, err));
    } finally {
      this.posts.delete(post);
    }
  }

  async close(): Promise<void> {
    this.stream.abort();
    this.markClosed('the session was closed');
  }

  private onEvent(event: string | undefined, data: string): void {
    if (event !== undefined && event !== 'message') return;
    const { value, problem } = parseMessage(data);
    if (problem) this.garbageHandler(`${problem}: ${clip(this.redact(data), 300)}`);
    for (const m of Array.isArray(value) ? value : [value]) {
      if (typeof m === 'object' && m !== null && !Array.isArray(m)) this.messageHandler(m as JsonObject);
      else if (!problem) this.garbageHandler(clip(this.redact(JSON.stringify(m) ?? ''), 300));
    }
  }

  private markClosed(reason: string): void {
    if (this.closedReason) return;
    this.closedReason = reason;
    for (const h of this.closeHandlers) h(reason);
    this.closeHandlers = [];
  }
}
