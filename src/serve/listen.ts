// `serve --listen`: Streamable HTTP for many clients in front of one upstream; each Mcp-Session-Id
// is a client of the hub, with grants of its own. Bounded: a body's size, the sessions kept (the
// one idle longest goes first), how long a session may stay idle; Origin and Host checked on
// every bind (DNS rebinding).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitialize, readJson } from '../protocol/server/http-body.js';
import { isModernRequest, modernStatus, refuseModernRequest } from '../protocol/server/modern-http.js';
import { acceptedOn, foreignRequest } from '../protocol/server/origin.js';
import { ERAS } from '../transport/era.js';
import type { JsonObject } from '../transport/types.js';
import type { Hub } from './hub.js';
import { checkClientMessage, errorReply } from './validate.js';

export interface ListenOptions {
  port: number;
  host: string;
  /** Origins accepted besides this server's own. */
  allowedOrigins: readonly string[];
  /** The largest body accepted, bytes. */
  maxBytes: number;
  /** Sessions kept at once. */
  maxSessions: number;
  /** A session idle this long ends (ms). */
  idleMs: number;
}

/** A session used this recently is not made room for: a new client is refused instead (503). */
const IN_USE_MS = 5000;

interface Session {
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
}

function rpcError(res: ServerResponse, status: number, message: string, code = -32000): void {
  json(res, status, { jsonrpc: '2.0', id: null, error: { code, message } });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export async function listen(
  hub: Hub,
  options: ListenOptions,
): Promise<{ url: string; accepts: string; close(): Promise<void> }> {
  const sessions = new Map<string, Session>();
  let bound = options.port;
  const server = createServer((req, res) => {
    void handle(req, res).catch((err: Error & { status?: number }) => {
      if (!res.headersSent) rpcError(res, err.status ?? 500, err.status ? err.message : 'Internal error');
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/mcp') return rpcError(res, 404, 'Not found: the MCP endpoint is /mcp');
    // MCP's transport: validate Origin (and Host) against DNS rebinding, whatever the address bound.
    const foreign = foreignRequest(
      { host: req.headers.host, origin: req.headers.origin },
      bound,
      options.allowedOrigins,
      options.host,
    );
    if (foreign) return rpcError(res, 403, `Forbidden: ${foreign}`);
    const sid = req.headers['mcp-session-id'];
    const id = Array.isArray(sid) ? sid[0] : sid;
    const body = req.method === 'POST' ? await readJson(req, options.maxBytes) : undefined;
    if (req.method === 'POST' && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      // One message per POST: batches are refused (MCP has none since 2025-06-18), and so is anything that is no
      // message.
      const checked = checkClientMessage(body);
      return json(
        res,
        400,
        checked.kind === 'invalid' && checked.reply ? checked.reply : errorReply(null, -32600, 'Invalid Request'),
      );
    }
    if (id) {
      const session = sessions.get(id);
      if (!session) return rpcError(res, 404, 'Session not found');
      session.lastSeen = Date.now();
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST') return rpcError(res, 400, 'Bad Request: Mcp-Session-Id header is required');
    // 2026-07-28: no session; each request is answered on its own.
    if (isModernRequest(req, body)) return answerModern(req, res, body as JsonObject);
    if (!isInitialize(body)) return rpcError(res, 400, 'Bad Request: no session; send initialize first');
    if (sessions.size >= options.maxSessions && !makeRoom()) {
      res.setHeader('retry-after', '5');
      return rpcError(
        res,
        503,
        `Service Unavailable: ${options.maxSessions} sessions are in use (serve --max-sessions)`,
      );
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (newId) => {
        sessions.set(newId, { transport, lastSeen: Date.now() });
      },
    });
    hub.attach(transport);
    const onclose = transport.onclose;
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      onclose?.();
    };
    await transport.start();
    await transport.handleRequest(req, res, body);
  }

  /** Ends the session idle longest, unless every session is in use. */
  function makeRoom(): boolean {
    const [oldest] = [...sessions].sort(([, a], [, b]) => a.lastSeen - b.lastSeen);
    if (!oldest || Date.now() - oldest[1].lastSeen < IN_USE_MS) return false;
    sessions.delete(oldest[0]);
    void oldest[1].transport.close();
    return true;
  }

  async function answerModern(req: IncomingMessage, res: ServerResponse, body: JsonObject): Promise<void> {
    const checked = checkClientMessage(body);
    if (checked.kind === 'invalid')
      return checked.reply ? json(res, 400, checked.reply) : void res.writeHead(202).end();
    // No session: there is nothing a notification or an answer could be about here.
    if (checked.kind === 'notification') return void res.writeHead(202).end();
    if (checked.kind === 'answer')
      return json(
        res,
        400,
        errorReply(null, -32600, 'Invalid Request: an answer without a session, to no request of this server'),
      );
    const refused = refuseModernRequest(req, body, ERAS);
    if (refused) return json(res, refused.status, refused.answer);
    // 2026-07-28: a client that disconnects cancels its request.
    const disconnected = new Promise<void>((resolve) =>
      res.once('close', () => {
        if (!res.writableFinished) resolve();
      }),
    );
    const answer = await hub.answerAlone(checked.message, disconnected);
    if (answer) json(res, modernStatus(answer), answer);
  }

  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) {
        if (now - session.lastSeen <= options.idleMs) continue;
        sessions.delete(id);
        void session.transport.close();
      }
    },
    Math.max(1000, Math.min(60_000, options.idleMs / 2)),
  );
  sweeper.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  bound = (server.address() as { port: number }).port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${bound}/mcp`,
    accepts: acceptedOn(options.host, bound, options.allowedOrigins),
    close: () =>
      new Promise((resolve) => {
        clearInterval(sweeper);
        for (const session of sessions.values()) void session.transport.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
