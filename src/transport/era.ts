import type { JsonObject } from './types.js';

/**
 * The two protocol eras a server may speak, named by their protocol versions: 2025-11-25 opens a
 * session with initialize; 2026-07-28 has no session, answers server/discover and reads a `_meta`
 * envelope on every request.
 */
export const LEGACY_ERA = '2025-11-25';
export const MODERN_ERA = '2026-07-28';
export type Era = typeof LEGACY_ERA | typeof MODERN_ERA;
export const ERAS: readonly Era[] = [LEGACY_ERA, MODERN_ERA];

export function isEra(value: unknown): value is Era {
  return value === LEGACY_ERA || value === MODERN_ERA;
}

/** The `_meta` keys of the 2026-07-28 request envelope. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** A request's params with the 2026-07-28 envelope added to `_meta` (what the caller put there kept). */
export function withEnvelope(
  params: JsonObject | undefined,
  clientInfo: { name: string; version: string },
  capabilities: JsonObject = {},
): JsonObject {
  const meta = typeof params?._meta === 'object' && params._meta !== null ? (params._meta as JsonObject) : {};
  return {
    ...params,
    _meta: {
      ...meta,
      [META.protocolVersion]: MODERN_ERA,
      [META.clientCapabilities]: capabilities,
      [META.clientInfo]: clientInfo,
    },
  };
}

/** The era a request was sent in, by its envelope (none: 2025-11-25). */
export function eraOfRequest(message: JsonObject): Era | undefined {
  const params = message.params as JsonObject | undefined;
  const meta = typeof params?._meta === 'object' && params._meta !== null ? (params._meta as JsonObject) : undefined;
  const version = meta?.[META.protocolVersion];
  if (typeof version === 'string') return version === MODERN_ERA ? MODERN_ERA : undefined;
  return message.method === 'server/discover' ? MODERN_ERA : undefined;
}

/** Which body field the `Mcp-Name` header mirrors, by method (2026-07-28, Streamable HTTP). */
const NAME_SOURCE: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/**
 * An HTTP field value: plain when it is printable ASCII without surrounding spaces, otherwise the
 * spec's `=?base64?…?=` form of its UTF-8 bytes.
 */
export function headerValue(value: string): string {
  const plain =
    value.length > 0 &&
    value === value.trim() &&
    /^[\t\x20-\x7e]*$/.test(value) &&
    !(value.startsWith('=?base64?') && value.endsWith('?='));
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The standard request headers of 2026-07-28 over HTTP: protocol version, method, and the name it acts on. */
export function modernHeaders(message: JsonObject): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-protocol-version': MODERN_ERA };
  if (typeof message.method !== 'string') return headers;
  headers['mcp-method'] = message.method;
  const field = Object.hasOwn(NAME_SOURCE, message.method) ? NAME_SOURCE[message.method] : undefined;
  const value =
    field && typeof message.params === 'object' && message.params !== null
      ? (message.params as JsonObject)[field]
      : undefined;
  if (typeof value === 'string') headers['mcp-name'] = headerValue(value);
  return headers;
}

/**
 * The request that opens a client's conversation in an era, sent outside any session (transport
 * probes): initialize, or server/discover with its envelope; with the headers the era wants.
 */
export function openingRequest(
  era: Era,
  clientInfo: { name: string; version: string },
): { message: JsonObject; headers: Record<string, string> } {
  if (era === MODERN_ERA) {
    const message: JsonObject = {
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: withEnvelope({}, clientInfo),
    };
    return { message, headers: modernHeaders(message) };
  }
  return {
    message: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LEGACY_ERA, capabilities: {}, clientInfo },
    },
    headers: {},
  };
}
