import type { IncomingMessage } from 'node:http';

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
  const first: unknown = Array.isArray(body) ? body[0] : body;
  return typeof first === 'object' && first !== null && (first as { method?: unknown }).method === 'initialize';
}
