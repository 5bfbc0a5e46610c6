// A URL as a target: sessions over Streamable HTTP, or the older HTTP+SSE transport.
import { HttpWire, displayUrl } from './http.js';
import { SseWire } from './sse.js';
import type { McpSession } from './session.js';
import { SlowStartError, TargetUnavailableError, type JsonObject, type Wire } from './types.js';
import { postProbe, type ProbeResult } from './probe.js';
import { httpRequest } from './http-request.js';
import { Redactor } from '../safety/redact.js';
import { MODERN_ERA } from './era.js';
import { PooledTarget, type HttpGetResult, type OpenOptions, type TargetOptions } from './target.js';

/** How an HTTP target is spoken to: Streamable HTTP, the 2024-11-05 HTTP+SSE transport, or whichever works. */
export type HttpTransport = 'auto' | 'streamable-http' | 'sse';

/**
 * Over HTTP, each session is one Mcp-Session-Id (Streamable HTTP) or one event stream (the older
 * HTTP+SSE transport). With `auto`, the first session tries Streamable HTTP as MCP clients do and
 * falls back to HTTP+SSE when initialize gets a 4xx; the other sessions wait for that decision.
 */
export class HttpTarget extends PooledTarget {
  readonly kind = 'http' as const;
  readonly cheapSessions = true;
  readonly describe: string;
  private readonly mode: HttpTransport;
  private chosen: 'streamable-http' | 'sse' | undefined;
  private deciding: Promise<McpSession> | undefined;
  private lastHttpWire: HttpWire | undefined;

  /** `headers` go on every request and never into a report. */
  constructor(
    private readonly url: URL,
    private readonly headers: Record<string, string>,
    options: TargetOptions & { transport?: HttpTransport },
  ) {
    // A URL has no process to start: its first request gets the request limit unless told otherwise.
    super({
      ...options,
      startupTimeoutMs: options.startupTimeoutMs ?? options.timeoutMs,
      startupOption: options.startupOption ?? '--timeout',
      redactor: options.redactor ?? Redactor.forRun({ headers }),
    });
    this.describe = displayUrl(url);
    // 2026-07-28 is spoken over Streamable HTTP only: the older HTTP+SSE transport is of 2024.
    this.mode = options.era === MODERN_ERA ? 'streamable-http' : (options.transport ?? 'auto');
    if (this.mode !== 'auto') this.chosen = this.mode;
  }

  transport(): 'streamable-http' | 'sse' {
    return this.chosen ?? 'streamable-http';
  }

  protected async startWire(budgetMs: number): Promise<Wire> {
    const redact = (text: string) => this.redactor.text(text);
    if (this.transport() === 'sse') return SseWire.connect(this.url, this.headers, budgetMs, this.limits, redact);
    const wire = new HttpWire(this.url, this.headers, this.limits, redact);
    this.lastHttpWire = wire;
    return wire;
  }

  /**
   * The first session decides the transport, within one start-up budget whatever transports it
   * tries; the others wait for that decision, and fail with its error when it failed (one
   * connection attempt, not one per session).
   */
  protected override async startSession(
    label: string,
    _budgetMs?: number,
    _since?: number,
    clientInfo?: OpenOptions['clientInfo'],
  ): Promise<McpSession> {
    const since = performance.now();
    // HTTP+SSE asked for (--transport sse): a server that does not offer it is said to be unreachable that way.
    if (this.mode === 'sse') {
      return super.startSession(label, this.startupTimeoutMs, since, clientInfo).catch((err: Error) => {
        throw err instanceof TargetUnavailableError && !(err instanceof SlowStartError)
          ? new TargetUnavailableError(
              `the HTTP+SSE transport asked for (--transport sse, or a config entry of type sse) did not work: ${err.message}; the server may offer Streamable HTTP only (leave --transport out, or give streamable-http; in a config file, type http)`,
            )
          : err;
      });
    }
    if (this.chosen) return super.startSession(label, this.startupTimeoutMs, since, clientInfo);
    if (this.deciding) {
      await this.deciding;
      return super.startSession(label, this.startupTimeoutMs, performance.now(), clientInfo);
    }
    this.deciding = (async () => {
      try {
        const session = await super.startSession(label, this.startupTimeoutMs, since, clientInfo);
        this.chosen ??= 'streamable-http';
        return session;
      } catch (err) {
        // Only a 4xx other than 401/403 says "not Streamable HTTP here"; anything else is the answer.
        const status = this.lastHttpWire?.firstStatus;
        if (
          !(err instanceof TargetUnavailableError) ||
          status === undefined ||
          status < 400 ||
          status > 499 ||
          status === 401 ||
          status === 403
        )
          throw err;
        this.chosen = 'sse';
        try {
          return await super.startSession(label, this.startupTimeoutMs, since);
        } catch (sseErr) {
          const waited = Math.round(performance.now() - since);
          throw new TargetUnavailableError(
            `${err.message}; the older HTTP+SSE transport did not work either: ${(sseErr as Error).message} (${waited} ms in all)`,
          );
        }
      }
    })();
    return this.deciding;
  }

  get endpoint(): URL {
    return new URL(this.url.href);
  }

  async probe(message: JsonObject, headers: Record<string, string>): Promise<ProbeResult & { url: string }> {
    const got = await postProbe(this.url, { ...this.headers, ...headers }, message, this.timeoutMs);
    return {
      url: displayUrl(this.url),
      ...got,
      ...(got.body !== undefined ? { body: this.redactor.text(got.body) } : {}),
    };
  }

  /** A plain GET of a path on the server's origin (well-known files), with the user's headers. */
  async get(path: string, timeoutMs = this.timeoutMs): Promise<HttpGetResult> {
    const url = new URL(path, this.url.origin);
    const shown = displayUrl(url);
    try {
      const res = await httpRequest(url, {
        method: 'GET',
        headers: this.headers,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const length = Number(res.headers.get('content-length') ?? 0);
      if (length > 4 * 1024 * 1024) {
        await res.body?.cancel();
        return { url: shown, status: res.status, problem: `the response is ${length} bytes` };
      }
      return {
        url: shown,
        status: res.status,
        contentType: res.headers.get('content-type') ?? undefined,
        body: this.redactor.text(await res.text()),
      };
    } catch (err) {
      return {
        url: shown,
        problem: (err as Error).name === 'TimeoutError' ? `no response within ${timeoutMs} ms` : (err as Error).message,
      };
    }
  }
}
