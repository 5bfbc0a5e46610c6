// The checker's HTTP client: node:http, not fetch(). Node 20's fetch (undici, web streams) cost
// half of a run's CPU against a local server (a profile of the default HTTP run: 0.54 s of 2.0 s
// in undici); the same requests through node:http cost a fraction. Only what the transports use
// of a Response is offered: status, headers, the body as an async iterable of bytes.
import { Agent as PlainAgent, request as plainRequest, type Agent, type IncomingMessage } from 'node:http';
import { Agent as TlsAgent, request as tlsRequest } from 'node:https';

export interface HttpRequestInit {
  method: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** The connections to use (a session's own); default: Node's global pool. */
  agent?: Agent;
}

/** A pool of keep-alive connections of its own, for `url`'s protocol. */
export function connectionPool(url: URL): Agent {
  return url.protocol === 'https:' ? new TlsAgent({ keepAlive: true }) : new PlainAgent({ keepAlive: true });
}

/** The body of a response: read it with for await (leaving the loop stops it), or cancel it. */
export interface HttpBody extends AsyncIterable<Uint8Array> {
  cancel(): Promise<void>;
}

export interface HttpResponse {
  status: number;
  statusText: string;
  ok: boolean;
  headers: { get(name: string): string | null };
  body: HttpBody | null;
  text(): Promise<string>;
}

/** Who is asking, unless the user's headers say otherwise (some front ends refuse a request without one). */
const USER_AGENT = 'mcp-pd-check';

/**
 * One request; redirects are not followed (the caller decides, see fetchSameOrigin). Rejects as
 * fetch does: with the signal's reason once it is aborted (a TimeoutError for AbortSignal.timeout),
 * else with the socket's error (its `code`: ECONNREFUSED, ENOTFOUND…).
 */
export function httpRequest(url: URL, init: HttpRequestInit): Promise<HttpResponse> {
  const { signal } = init;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'user-agent': USER_AGENT, ...init.headers };
    if (init.body !== undefined) headers['content-length'] = Buffer.byteLength(init.body);
    let req;
    try {
      req = (url.protocol === 'https:' ? tlsRequest : plainRequest)(url, { method: init.method, headers, ...(init.agent ? { agent: init.agent } : {}) });
    } catch (err) {
      // An invalid header value (a user's --header with a control character), as fetch rejects it.
      reject(err);
      return;
    }
    const onAbort = () => {
      req.destroy();
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.once('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? signal.reason : err);
    });
    req.once('response', (res) => {
      // From here the body's reader sees an abort (the stream is destroyed, its loop throws).
      signal?.removeEventListener('abort', onAbort);
      if (signal) {
        const stop = () => res.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        signal.addEventListener('abort', stop, { once: true });
        res.once('close', () => signal.removeEventListener('abort', stop));
      }
      resolve(responseOf(res));
    });
    req.end(init.body);
  });
}

function responseOf(res: IncomingMessage): HttpResponse {
  const status = res.statusCode ?? 0;
  const body: HttpBody = Object.assign(res, {
    cancel: async () => {
      res.destroy();
    },
  });
  return {
    status,
    statusText: res.statusMessage ?? '',
    ok: status >= 200 && status <= 299,
    headers: {
      get: (name) => {
        const value = res.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    body,
    text: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}
