// A paginated list (tools/list, resources/list…) read to its end, whatever the server does with its cursors.
import type { Exchange, JsonObject } from './types.js';
import { asText, clip } from '../util/text.js';

/** A paginated list that goes on longer than this is treated as a cursor loop. */
export const MAX_PAGES = 100;

/** Every item of a list, every page's exchange, and why it stopped early if it did. */
export interface Listing {
  items: unknown[];
  exchanges: Exchange[];
  problem?: string;
}

/**
 * Follows `nextCursor` to the end. Returns every item and every page's exchange;
 * `problem` says why it stopped early (error, timeout, cursor loop).
 */
export async function listAll(
  session: { request(method: string, params?: JsonObject): Promise<Exchange> },
  method: string,
  key: string,
): Promise<Listing> {
  const items: unknown[] = [];
  const exchanges: Exchange[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const ex = await session.request(method, cursor === undefined ? undefined : { cursor });
    exchanges.push(ex);
    const result = ex.response?.result as JsonObject | undefined;
    if (!result) {
      const error = ex.response?.error as JsonObject | undefined;
      const why = ex.noResponse
        ? `got no response (${ex.note})`
        : error
          ? `returned the error ${asText(error.code)} "${clip(asText(error.message ?? ''), 120)}"${error.code === -32601 ? ' (the server does not implement it)' : ''}`
          : 'returned no result';
      return { items, exchanges, problem: `${method} ${why}` };
    }
    const list = result[key];
    if (!Array.isArray(list)) return { items, exchanges, problem: `${method} result has no '${key}' array` };
    items.push(...(list as unknown[]));
    const next = result.nextCursor;
    if (next === undefined || next === null) return { items, exchanges };
    if (typeof next !== 'string')
      return { items, exchanges, problem: `${method} returned a nextCursor that is not a string` };
    if (seen.has(next))
      return {
        items,
        exchanges,
        problem: `${method} returned the cursor '${clip(next, 40)}' twice (a pagination loop)`,
      };
    seen.add(next);
    cursor = next;
  }
  return { items, exchanges, problem: `${method} still had more pages after ${MAX_PAGES}` };
}
