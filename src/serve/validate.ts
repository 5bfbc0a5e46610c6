// What `serve` accepts from a client before anything else, the gate included: one JSON-RPC 2.0
// message — a request, a notification, or an answer — in MCP's shape. Anything else is answered
// here (-32600, id null where there is none) and never reaches the upstream.

export type Id = string | number;
export type Message = Record<string, unknown> & { id?: Id; method?: string; params?: Record<string, unknown> };

/** A message as `serve` reads it: what it is, or the error its sender gets (undefined: nothing can be answered). */
export type Checked =
  | { kind: 'request'; message: Message & { id: Id; method: string } }
  | { kind: 'notification'; message: Message & { method: string } }
  | { kind: 'answer'; message: Message & { id: Id } }
  | { kind: 'invalid'; reply?: Message };

export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

/** The error a sender gets, under its id (null when it gave none that can be answered). */
export function errorReply(id: unknown, code: number, message: string): Message {
  return { jsonrpc: '2.0', id: isId(id) ? id : null, error: { code, message } } as unknown as Message;
}

function isId(value: unknown): value is Id {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads one message from a client. A batch (an array) is refused whole: MCP has had none since
 * 2025-06-18, and each element would need the gate anyway. A request whose id is missing is a
 * notification, and a notification can be answered by no one: only `notifications/…` ones pass.
 */
export function checkClientMessage(raw: unknown): Checked {
  if (Array.isArray(raw))
    return {
      kind: 'invalid',
      reply: errorReply(
        null,
        INVALID_REQUEST,
        'Invalid Request: JSON-RPC batches are not accepted (MCP has none since 2025-06-18); send one message at a time',
      ),
    };
  if (!isObject(raw))
    return {
      kind: 'invalid',
      reply: errorReply(null, INVALID_REQUEST, 'Invalid Request: a JSON-RPC message is a JSON object'),
    };
  const { id, method, params } = raw;
  if (raw.jsonrpc !== '2.0')
    return { kind: 'invalid', reply: errorReply(id, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"') };
  if ('id' in raw && id !== undefined && !isId(id))
    return {
      kind: 'invalid',
      reply: errorReply(null, INVALID_REQUEST, 'Invalid Request: "id" must be a string or a number'),
    };
  if (method === undefined) {
    // An answer to a request `serve` sent: result or error, under an id.
    if (!isId(id) || !('result' in raw) === !('error' in raw))
      return {
        kind: 'invalid',
        reply: errorReply(
          id,
          INVALID_REQUEST,
          'Invalid Request: neither a request (no "method") nor an answer (an id and one of "result" or "error")',
        ),
      };
    return { kind: 'answer', message: raw as Message & { id: Id } };
  }
  if (typeof method !== 'string' || !method)
    return { kind: 'invalid', reply: errorReply(id, INVALID_REQUEST, 'Invalid Request: "method" must be a string') };
  if (params !== undefined && !isObject(params))
    return {
      kind: 'invalid',
      reply: errorReply(id, INVALID_PARAMS, `Invalid params: "params" of ${clipped(method)} must be an object`),
    };
  if (id === undefined) {
    // A notification cannot be answered, so one that is no notification is dropped, unanswered.
    return method.startsWith('notifications/')
      ? { kind: 'notification', message: raw as Message & { method: string } }
      : { kind: 'invalid' };
  }
  const problem = paramsProblem(method, params ?? {});
  if (problem) return { kind: 'invalid', reply: errorReply(id, INVALID_PARAMS, `Invalid params: ${problem}`) };
  return { kind: 'request', message: raw as Message & { id: Id; method: string } };
}

/** What is wrong with the params of the methods `serve` itself reads (the rest is the upstream's to judge). */
function paramsProblem(method: string, params: Record<string, unknown>): string | undefined {
  if (method === 'tools/call') {
    if (typeof params.name !== 'string') return 'tools/call needs "name", a string';
    if (params.arguments !== undefined && !isObject(params.arguments))
      return 'tools/call "arguments" must be an object';
  }
  if (
    (method === 'resources/read' || method === 'resources/subscribe' || method === 'resources/unsubscribe') &&
    typeof params.uri !== 'string'
  )
    return `${method} needs "uri", a string`;
  const meta = params._meta;
  if (meta !== undefined && !isObject(meta)) return '"_meta" must be an object';
  const token = isObject(meta) ? meta.progressToken : undefined;
  if (token !== undefined && !isId(token)) return 'a progressToken is a string or a number';
  return undefined;
}

/** Whether a message from the upstream is one `serve` can route: an object with a method or an id. */
export function isUpstreamMessage(raw: unknown): raw is Message {
  return isObject(raw) && (typeof raw.method === 'string' || isId(raw.id));
}

function clipped(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
