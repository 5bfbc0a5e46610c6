import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { foreignRequest, isLoopbackAddress } from '../src/protocol/server/origin.js';
import { isInitialize, readJson } from '../src/protocol/server/http-body.js';
import { isModernRequest, modernStatus, refuseModernRequest } from '../src/protocol/server/modern-http.js';
import { ERAS } from '../src/transport/era.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { behaviourWith, createReferenceServer, newSessionState, type Behaviour, type ServerOptions } from './server.js';
import type { JsonObject } from '../src/transport/types.js';

export interface HttpOptions {
  port: number;
  host?: string;
  /** Sessions idle this long are closed (§5.2 MAY). */
  idleMs?: number;
  /** More live sessions than this are refused with 503. */
  maxSessions?: number;
  overrides?: Partial<Behaviour>;
  /** When set, /mcp requires `Authorization: Bearer <token>` (primary authorization, spec §5.3). */
  token?: string;
  /** Description fetches per minute and session (0: no limit). */
  fetchLimit?: number;
  /** Each request waits this long before it is handled, by method (tests and the bench). */
  latencyMs?: ServerOptions['latencyMs'];
  beforeRun?: ServerOptions['beforeRun'];
  /** Origins accepted besides the loopback ones (DNS rebinding protection). */
  allowedOrigins?: string[];
}

interface Live {
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
}

const MAX_BODY_BYTES = 1024 * 1024;

/** The TCP connection of the request being handled (a fixture keeps grants by it: a server's fault). */
const connection = new AsyncLocalStorage<object>();
export function requestConnection(): object | undefined {
  return connection.getStore();
}

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) }).end(text);
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  send(res, status, { jsonrpc: '2.0', id: null, error: { code, message } });
}

/**
 * The reference server over Streamable HTTP at /mcp — one SDK Server + transport per
 * Mcp-Session-Id, so grants are per session by construction — and, for clients of the older
 * 2024-11-05 transport, HTTP+SSE at /sse (one event stream per session; messages are POSTed to
 * /messages?sessionId=…). Binds 127.0.0.1 unless told otherwise.
 */
export async function startHttpServer(
  options: HttpOptions,
): Promise<{ url: string; close(): Promise<void>; sessions(): number }> {
  const sessions = new Map<string, Live>();
  const streams = new Map<string, SSEServerTransport>();
  const idleMs = options.idleMs ?? 10 * 60_000;
  const maxSessions = options.maxSessions ?? 1000;
  const behaviour = behaviourWith(options.overrides);
  let bound = options.port;

  const http = createServer((req, res) => {
    void connection
      .run(req.socket, () => handle(req, res))
      .catch((err: Error & { status?: number }) => {
        if (!res.headersSent) rpcError(res, err.status ?? 500, -32603, err.status ? err.message : 'Internal error');
        else res.end();
      });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const card = /^\/\.well-known\/mcp-tools\/([A-Za-z0-9_.-]+)\.json$/.exec(url.pathname);
    if (card) {
      const body = req.method === 'GET' ? behaviourWith(options.overrides).toolCard(card[1]) : undefined;
      if (body !== undefined) send(res, 200, body);
      else send(res, 404, { error: `No Tool Card for '${card[1]}'` });
      return;
    }
    if (url.pathname !== '/mcp' && url.pathname !== '/sse' && url.pathname !== '/messages') {
      send(res, 404, { error: 'Not found: the MCP endpoint is /mcp (HTTP+SSE: /sse)' });
      return;
    }
    // MCP transports: validate Origin against DNS rebinding (a local server: Host too).
    const host = options.host ?? '127.0.0.1';
    if (behaviour.validatesOrigin() && isLoopbackAddress(host)) {
      const foreign = foreignRequest(
        { host: req.headers.host, origin: req.headers.origin },
        bound,
        options.allowedOrigins,
      );
      if (foreign) return rpcError(res, 403, -32000, `Forbidden: ${foreign}`);
    }
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      res.setHeader('www-authenticate', 'Bearer');
      return rpcError(res, 401, -32001, 'Unauthorized: send Authorization: Bearer <token>');
    }
    if (url.pathname === '/sse') {
      if (req.method !== 'GET')
        return rpcError(res, 405, -32000, 'Method not allowed: GET /sse opens an HTTP+SSE session');
      if (sessions.size + streams.size >= maxSessions)
        return rpcError(res, 503, -32000, `Too many sessions (${maxSessions}); try again later`);
      const transport = new SSEServerTransport('/messages', res);
      streams.set(transport.sessionId, transport);
      transport.onclose = () => streams.delete(transport.sessionId);
      await createReferenceServer(options.overrides, {
        fetchLimit: options.fetchLimit,
        latencyMs: options.latencyMs,
        beforeRun: options.beforeRun,
      }).connect(transport);
      return;
    }
    if (url.pathname === '/messages') {
      const transport = streams.get(url.searchParams.get('sessionId') ?? '');
      if (req.method !== 'POST') return rpcError(res, 405, -32000, 'Method not allowed');
      if (!transport) return rpcError(res, 404, -32001, 'Session not found');
      await transport.handlePostMessage(req, res, await readJson(req, MAX_BODY_BYTES));
      return;
    }
    const sid = req.headers['mcp-session-id'];
    const id = Array.isArray(sid) ? sid[0] : sid;
    if (id) {
      const live = sessions.get(id);
      if (!live) return rpcError(res, 404, -32001, 'Session not found');
      live.lastSeen = Date.now();
      if (req.method === 'DELETE' && !behaviourWith(options.overrides).endsOnDelete()) {
        res.writeHead(200).end();
        return;
      }
      const body = req.method === 'POST' ? await readJson(req, MAX_BODY_BYTES) : undefined;
      await live.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST') return rpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    const body = await readJson(req, MAX_BODY_BYTES);
    // 2026-07-28: no session; each request is answered on its own.
    if (isModernRequest(req, body)) return answerModern(req, res, body);
    if (!isInitialize(body)) {
      // A server that ignores the header serves the request in its latest session (a fixture's fault).
      const latest = [...sessions.entries()].pop();
      if (!behaviour.requiresSessionId() && latest) {
        // The SDK reads the raw headers too: the id goes into both.
        req.headers['mcp-session-id'] = latest[0];
        req.rawHeaders.push('mcp-session-id', latest[0]);
        return latest[1].transport.handleRequest(req, res, body);
      }
      return rpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    }
    if (sessions.size >= maxSessions)
      return rpcError(res, 503, -32000, `Too many sessions (${maxSessions}); try again later`);
    const state = {
      ...newSessionState(options.fetchLimit),
      ...(req.socket.remoteAddress ? { peer: req.socket.remoteAddress } : {}),
    };
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (newId) => {
        sessions.set(newId, { transport, lastSeen: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      behaviour.sessionEnded(state);
    };
    behaviour.sessionStarted(state);
    await createReferenceServer(options.overrides, {
      fetchLimit: options.fetchLimit,
      latencyMs: options.latencyMs,
      beforeRun: options.beforeRun,
      state,
    }).connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /**
   * Grants of 2026 clients kept for the whole process (a fixture's fault: any client's fetch opens the tool for all).
   */
  // (no rate limit there: the fixture breaks the grants, and one limit for the whole process would break the fetches
  // too)
  const processWide = newSessionState(0);

  async function answerModern(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const message = body as JsonObject;
    const refused = refuseModernRequest(req, message, ERAS);
    if (refused) return send(res, refused.status, refused.answer);
    if (message.id === undefined || message.id === null) {
      res.writeHead(202).end();
      return;
    }
    const grants = behaviour.modernHttpGrants();
    const state = grants === 'process-wide' ? processWide : newSessionState(options.fetchLimit);
    const server = createReferenceServer(options.overrides, {
      fetchLimit: options.fetchLimit,
      latencyMs: options.latencyMs,
      beforeRun: options.beforeRun,
      state,
      gated: grants !== 'none',
    });
    const [client, serverSide] = InMemoryTransport.createLinkedPair();
    const answer = new Promise<JsonObject>((resolve) => {
      client.onmessage = (m) => {
        if ('id' in m && m.id === message.id && !('method' in m)) resolve(m);
      };
    });
    await server.connect(serverSide);
    await client.start();
    await client.send(message as never);
    const reply = await answer;
    await server.close();
    send(res, modernStatus(reply), reply);
  }

  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const [id, live] of sessions) {
        if (now - live.lastSeen > idleMs) {
          sessions.delete(id);
          void live.transport.close();
        }
      }
    },
    Math.min(60_000, idleMs),
  ).unref();

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = http.address() as { port: number };
  bound = address.port;
  const host = options.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/mcp`,
    sessions: () => sessions.size + streams.size,
    async close() {
      clearInterval(sweeper);
      await Promise.all([...sessions.values()].map((s) => s.transport.close()));
      await Promise.all([...streams.values()].map((s) => s.close()));
      sessions.clear();
      streams.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
