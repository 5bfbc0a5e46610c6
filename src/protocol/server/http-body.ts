import type { IncomingMessage } from 'node:http';
import { eraOfRequest, MODERN_ERA, modernHeaders } from '../../transport/era.js';
import type { JsonObject } from '../../transport/types.js';

/** A request's JSON body, at most `limit` bytes (413 beyond it, 400 if it is not JSON). */
export async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw Object.assign(new Error('body too large'), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw Object.assign(new Error('body is not JSON'), { status: 400 });
  }
}

/** Whether a body (a message or a batch) starts with initialize: the only request without a session. */
export function isInitialize(body: unknown): boolean {
  const first = Array.isArray(body) ? body[0] : body;
  return typeof first === 'object' && first !== null && (first as { method?: unknown }).method === 'initialize';
}

/** A POST of a 2026-07-28 client: its protocol header, or the envelope in its body. */
export function isModernRequest(req: IncomingMessage, body: unknown): boolean {
  if (req.headers['mcp-protocol-version'] === MODERN_ERA) return true;
  return typeof body === 'object' && body !== null && !Array.isArray(body) && eraOfRequest(body as JsonObject) === MODERN_ERA;
}

/** What is wrong with a 2026 request's standard headers (they must agree with its body), if anything. */
export function headerProblem(req: IncomingMessage, message: JsonObject): string | undefined {
  if (message.id === undefined || message.id === null) return undefined;
  const want = modernHeaders(message);
  for (const [name, value] of Object.entries(want)) {
    const got = req.headers[name];
    if (got === undefined) return `the ${name} header is missing (it must be ${value})`;
    if (got !== value) return `the ${name} header says '${String(got)}' but the body says '${value}'`;
  }
  return undefined;
}
