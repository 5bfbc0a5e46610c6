// The checker's HTTP client: node:http, not fetch(). Node 20's fetch (undici, web streams) cost
// half of a run's CPU against a local server (a profile of the default HTTP run: 0.54 s of 2.0 s
// in undici); the same requests through node:http cost a fraction. Only what the transports use
// of a Response is offered: status, headers, the body as an async iterable of bytes.
import { Agent as PlainAgent, request as plainRequest, type Agent, type IncomingMessage } from 'node:http';
import { Agent as TlsAgent, request as tlsRequest } from 'node:https';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

export interface HttpRequestInit {
  method: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** The connections to use (a session's own); default: Node's global pool. */
  agent?: Agent;
  /** Told the connection the request goes on, once it has one. */
  onSocket?: (socket: Socket) => void;
}

/**
 * A pool of keep-alive connections of its own, for `url`'s protocol, that can open connections
 * ahead (`openFresh`) for requests sent together. They leave together only on connections in the
 * same state: one that must first connect, or that the server took an event-loop turn later than
 * the others, reaches a busy server after them (measured: 150–250 ms on a loaded reference server,
 * longer than a read-modify-write race lasts there).
 */
export class ConnectionPool {
  readonly agent: Agent;
  private readonly opened: Socket[] = [];

  constructor(private readonly url: URL) {
    const agent = url.protocol === 'https:' ? new TlsAgent({ keepAlive: true }) : new PlainAgent({ keepAlive: true });
    const connect = agent.createConnection.bind(agent) as (...args: unknown[]) => Socket;
    // A connection opened ahead is handed out before a new one is made.
    (agent as { createConnection: unknown }).createConnection = (...args: unknown[]) => this.take() ?? connect(...args);
    this.agent = agent;
  }

  /**
   * Closes its idle connections and opens `count` new ones, connected before it resolves (at most
   * `timeoutMs`; one that does not connect is left out): the next requests go on them.
   */
  async openFresh(count: number, timeoutMs: number): Promise<void> {
    this.closeIdle();
    const port = Number(this.url.port) || (this.url.protocol === 'https:' ? 443 : 80);
    const host = this.url.hostname.replace(/^\[|\]$/g, '');
    await Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<void>((resolve) => {
            const socket =
              this.url.protocol === 'https:'
                ? tlsConnect({ host, port, ...(isIP(host) ? {} : { servername: host }), ALPNProtocols: ['http/1.1'] })
                : netConnect({ host, port });
            const done = (ok: boolean) => {
              clearTimeout(timer);
              socket.off('error', failed);
              if (ok) {
                socket.on('error', () => socket.destroy());
                this.opened.push(socket);
              } else socket.destroy();
              resolve();
            };
            const failed = () => done(false);
            const timer = setTimeout(failed, timeoutMs);
            socket.once('error', failed);
            socket.once(this.url.protocol === 'https:' ? 'secureConnect' : 'connect', () => done(true));
          }),
      ),
    );
  }

  private take(): Socket | undefined {
    for (let socket = this.opened.pop(); socket; socket = this.opened.pop()) {
      if (!socket.destroyed && socket.readyState === 'open') {
        socket.removeAllListeners('error');
        return socket;
      }
    }
    return undefined;
  }

  /** Closes its idle connections: the requests in flight finish on theirs. */
  closeIdle(): void {
    for (const sockets of Object.values(this.agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
    for (const socket of this.opened.splice(0)) socket.destroy();
  }

  destroy(): void {
    this.closeIdle();
    this.agent.destroy();
  }
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
      req = (url.protocol === 'https:' ? tlsRequest : plainRequest)(url, {
        method: init.method,
        headers,
        ...(init.agent ? { agent: init.agent } : {}),
      });
    } catch (err) {
      // An invalid header value (a user's --header with a control character), as fetch rejects it.
      reject(err);
      return;
    }
    if (init.onSocket) req.once('socket', init.onSocket);
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
