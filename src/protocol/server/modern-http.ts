// A 2026-07-28 request over Streamable HTTP, as a server must meet it: no session, the envelope and
// the standard headers checked before anything is done (400 with the era's error codes, under the
// request's id), and "Method not found" as 404. The reference server and `serve --listen` share it.
import type { IncomingMessage } from 'node:http';
import { META, MODERN_ERA, modernHeaders } from '../../transport/era.js';
import type { JsonObject } from '../../transport/types.js';

/** Protocol versions of the session era (a client of one sends it as MCP-Protocol-Version, with a session id). */
const LEGACY_VERSIONS = new Set(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']);
/** The era's own error codes (2026-07-28 schema). */
export const HEADER_MISMATCH = -32020;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;
const INVALID_PARAMS = -32602;
const METHOD_NOT_FOUND = -32601;

/**
 * Whether a POST without a session is of 2026-07-28 (or claims a version after the session era):
 * its MCP-Protocol-Version header, else the envelope in its body.
 */
export function isModernRequest(req: IncomingMessage, body: unknown): boolean {
  const header = req.headers['mcp-protocol-version'];
  if (typeof header === 'string') return !LEGACY_VERSIONS.has(header);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const meta = metaOf(body as JsonObject);
  return (
    (meta !== undefined && (META.protocolVersion in meta || META.clientCapabilities in meta)) ||
    (body as JsonObject).method === 'server/discover'
  );
}

/** Why a 2026 request is refused before it is served (HTTP 400), if it is: the answer goes out under its id. */
export function refuseModernRequest(
  req: IncomingMessage,
  message: JsonObject,
  supported: readonly string[],
): { status: number; answer: JsonObject } | undefined {
  if (message.id === undefined || message.id === null) return undefined;
  const refuse = (code: number, text: string, data?: JsonObject) => ({
    status: 400,
    answer: { jsonrpc: '2.0', id: message.id, error: { code, message: text, ...(data ? { data } : {}) } },
  });
  const meta = metaOf(message);
  const version = meta?.[META.protocolVersion];
  if (meta === undefined)
    return refuse(
      INVALID_PARAMS,
      'Invalid params: a 2026-07-28 request carries params._meta with the protocol version and the client capabilities',
    );
  if (typeof version !== 'string')
    return refuse(INVALID_PARAMS, `Invalid params: _meta has no ${META.protocolVersion}`);
  if (typeof meta[META.clientCapabilities] !== 'object' || meta[META.clientCapabilities] === null)
    return refuse(INVALID_PARAMS, `Invalid params: _meta has no ${META.clientCapabilities}`);
  const header = req.headers['mcp-protocol-version'];
  if (header !== undefined && header !== version)
    return refuse(
      HEADER_MISMATCH,
      `Header mismatch: MCP-Protocol-Version says '${String(header)}' but _meta says '${version}'`,
    );
  if (version !== MODERN_ERA)
    return refuse(UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${version}`, {
      supported: [...supported],
      requested: version,
    });
  for (const [name, value] of Object.entries(modernHeaders(message))) {
    const got = req.headers[name];
    if (got === undefined)
      return refuse(HEADER_MISMATCH, `Header mismatch: the ${name} header is missing (it must be ${value})`);
    if (got !== value)
      return refuse(
        HEADER_MISMATCH,
        `Header mismatch: the ${name} header says '${String(got)}' but the body says '${value}'`,
      );
  }
  return undefined;
}

/** The HTTP status of a 2026 answer: 404 for a method the server does not have, else 200. */
export function modernStatus(answer: JsonObject): number {
  const error = answer.error as { code?: unknown } | undefined;
  return error?.code === METHOD_NOT_FOUND ? 404 : 200;
}

function metaOf(message: JsonObject): JsonObject | undefined {
  const params = message.params as JsonObject | undefined;
  const meta = typeof params === 'object' && params !== null ? params._meta : undefined;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as JsonObject) : undefined;
}
