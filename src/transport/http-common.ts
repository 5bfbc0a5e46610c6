import { clip, sanitizeLine } from '../util/text.js';
import { httpRequest, type HttpRequestInit, type HttpResponse } from './http-request.js';

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

export type SameOriginResult =
  { res: HttpResponse; movedTo?: URL; refused?: undefined } | { res?: undefined; refused: string };

/**
 * A request that follows redirects only within `url`'s origin: the user's headers (API keys,
 * cookies) must never reach another origin, and Node's fetch would strip only Authorization and
 * Cookie (so does the checker's own client, which follows none). A redirect elsewhere is refused with a reason that
 * names it. `movedTo` is set when a
 * permanent redirect (301, 308) moved the URL.
 */
export async function fetchSameOrigin(url: URL, init: HttpRequestInit): Promise<SameOriginResult> {
  let current = url;
  let movedTo: URL | undefined;
  for (let hop = 0; ; hop++) {
    const res = await httpRequest(current, init);
    if (res.status < 300 || res.status > 399 || res.status === 304) return { res, ...(movedTo ? { movedTo } : {}) };
    await res.body?.cancel();
    const location = res.headers.get('location');
    if (!location) return { refused: `HTTP ${res.status} redirect without a Location header` };
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      return { refused: `HTTP ${res.status} redirect to an invalid URL: ${clip(sanitizeLine(location), 120)}` };
    }
    if (next.origin !== url.origin) {
      return {
        refused: `the server redirected (HTTP ${res.status}) to ${displayUrl(next)}, another origin; mcp-pd-check never sends your headers to another origin, so it stopped — if you trust that server, pass --url ${displayUrl(next)}`,
      };
    }
    if (hop >= MAX_REDIRECTS)
      return { refused: `more than ${MAX_REDIRECTS} redirects (the last to ${displayUrl(next)})` };
    if (res.status === 301 || res.status === 308) movedTo = next;
    current = next;
  }
}

/**
 * A 401 names what the server asked for — its WWW-Authenticate scheme and any URL in it (an
 * authorization server, resource metadata) — and says that nothing was fetched from there.
 */
export function unauthorized(res: HttpResponse, url: URL, headers: Record<string, string> = {}): string {
  const challenge = res.headers.get('www-authenticate');
  const scheme = challenge ? /^\s*([\w-]+)/.exec(challenge)?.[1] : undefined;
  const named = challenge
    ? [...challenge.matchAll(/"(https?:\/\/[^"\s]+)"|(https?:\/\/[^\s",]+)/g)].map((m) => m[1] ?? m[2])
    : [];
  const where = named.map((u) => {
    let origin = '';
    try {
      origin = new URL(u).origin === url.origin ? ' (this origin)' : ' (another origin)';
    } catch {
      /* shown as given */
    }
    return `${clip(sanitizeLine(u), 160)}${origin}`;
  });
  const asked = scheme ? `; it asks for ${clip(sanitizeLine(scheme), 40)} credentials` : '';
  const pointed = where.length ? ` and points to ${where.join(', ')}, which mcp-pd-check did not contact` : '';
  // Credentials were sent and refused: the fix is the credential, not how to send one.
  const sent = Object.keys(headers).find(
    (h) => /^(authorization|proxy-authorization|x-api-key|api-key|cookie)$/i.test(h) || /token|key|auth/i.test(h),
  );
  if (sent)
    return `HTTP 401 Unauthorized: the server refused the credentials sent (--header ${sent})${asked}${pointed}; check that the value is current and meant for this server`;
  return `HTTP 401 Unauthorized: the server requires authorization${asked}${pointed}; pass credentials with --header 'Authorization: Bearer $TOKEN'`;
}

/** Whether a fetch failed because nothing listens at the address any more. */
export function connectionRefused(err: unknown): boolean {
  const cause = (err as { cause?: { code?: string } }).cause;
  return (cause?.code ?? (err as NodeJS.ErrnoException).code) === 'ECONNREFUSED';
}

export function networkReason(where: string, err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (err as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return `cannot connect to ${where}: connection refused (is the server running?)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot resolve the host of ${where}`;
  if ((err as Error).name === 'AbortError') return 'the request was aborted';
  const message = String(cause?.message ?? (err as Error).message);
  // TLS in words: OpenSSL's own lines name a source file, not the mistake.
  if (code === 'EPROTO' || /wrong version number|WRONG_VERSION_NUMBER|packet length too long/i.test(message)) {
    return `${where} does not answer TLS: is it plain HTTP? (try http:// instead of https://)`;
  }
  if (/CERT|certificate|self[- ]signed/i.test(`${code ?? ''} ${message}`))
    return `the TLS certificate of ${where} was refused (${code ?? message.split('\n')[0]})`;
  if (code === 'ECONNRESET') return `${where} closed the connection (ECONNRESET)`;
  return `the HTTP request failed: ${message.split('\n')[0].replace(/:[^:]*openssl[^:]*:\d+:?\s*$/i, '')}`;
}

/** The body as text, or undefined when it is larger than `max` bytes (read no further). */
export async function readCapped(res: HttpResponse, max: number): Promise<string | undefined> {
  if (Number(res.headers.get('content-length') ?? 0) > max) {
    await res.body?.cancel();
    return undefined;
  }
  if (!res.body) return '';
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.length;
    if (size > max) return undefined; // leaving the loop cancels the stream
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}
