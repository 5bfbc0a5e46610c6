// `serve --listen`: Streamable HTTP for many clients in front of one upstream; each Mcp-Session-Id
// is a client of the hub, with grants of its own.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitialize, readJson } from '../protocol/server/http-body.js';
import { isModernRequest, modernStatus, refuseModernRequest } from '../protocol/server/modern-http.js';
import { ERAS } from '../transport/era.js';
import type { JsonObject } from '../transport/types.js';
import { foreignRequest, isLoopbackAddress } from '../protocol/server/origin.js';
import type { Hub } from './hub.js';

const MAX_BODY_BYTES = 4 * 1024 * 1024;

function rpcError(res: ServerResponse, status: number, message: string): void {
  json(res, status, { jsonrpc: '2.0', id: null, error: { code: -32000, message } });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export async function listen(hub: Hub, port: number, host = '127.0.0.1', allowedOrigins: readonly string[] = []): Promise<{ url: string; close(): Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let bound = port;
  const server = createServer((req, res) => {
    void handle(req, res).catch((err: Error & { status?: number }) => {
      if (!res.headersSent) rpcError(res, err.status ?? 500, err.status ? err.message : 'Internal error');
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/mcp') return rpcError(res, 404, 'Not found: the MCP endpoint is /mcp');
    // MCP's transport: validate Origin (and Host) against DNS rebinding.
    const foreign = isLoopbackAddress(host) ? foreignRequest({ host: req.headers.host, origin: req.headers.origin }, bound, allowedOrigins) : undefined;
    if (foreign) return rpcError(res, 403, `Forbidden: ${foreign}`);
    const sid = req.headers['mcp-session-id'];
    const id = Array.isArray(sid) ? sid[0] : sid;
    if (id) {
      const transport = sessions.get(id);
      if (!transport) return rpcError(res, 404, 'Session not found');
      await transport.handleRequest(req, res, req.method === 'POST' ? await readJson(req, MAX_BODY_BYTES) : undefined);
      return;
    }
    if (req.method !== 'POST') return rpcError(res, 400, 'Bad Request: Mcp-Session-Id header is required');
    const body = await readJson(req, MAX_BODY_BYTES);
    // 2026-07-28: no session; each request is answered on its own.
    if (isModernRequest(req, body)) return answerModern(req, res, body as JsonObject);
    if (!isInitialize(body)) return rpcError(res, 400, 'Bad Request: no session; send initialize first');
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (newId) => { sessions.set(newId, transport); },
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

  async function answerModern(req: IncomingMessage, res: ServerResponse, message: JsonObject): Promise<void> {
    const refused = refuseModernRequest(req, message, ERAS);
    if (refused) return json(res, refused.status, refused.answer);
    if (message.id === undefined || message.id === null) {
      res.writeHead(202).end();
      return;
    }
    const answer = await hub.answerAlone(message as Parameters<Hub['answerAlone']>[0]);
    json(res, modernStatus(answer as JsonObject), answer);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  bound = (server.address() as { port: number }).port;
  return {
    url: `http://${host}:${bound}/mcp`,
    close: () => new Promise((resolve) => {
      for (const t of sessions.values()) void t.close();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
