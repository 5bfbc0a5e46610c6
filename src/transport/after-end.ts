// A request sent under a session's id after the session was terminated (MCP transports: the
// server must answer 404), recorded as an exchange the model judges (`ended-session-answered`).
import { sentAfterEnd } from './exchange-times.js';
import type { Exchange, JsonObject } from './types.js';

/** What came back to a request sent after the session ended: its HTTP status and body, or the problem. */
export interface AfterEndAnswer {
  status?: number;
  body?: string;
  problem?: string;
}

/** The exchange of `request`, sent at `sentAt` under the ended session's id, answered with `got`. */
export function exchangeAfterEnd(session: string, request: JsonObject, sentAt: number, got: AfterEndAnswer): Exchange {
  const exchange: Exchange = {
    session,
    method: 'tools/list',
    request,
    durationMs: Math.round(performance.now() - sentAt),
  };
  exchange.note =
    got.status !== undefined
      ? `sent with the Mcp-Session-Id of the session it ended: HTTP ${got.status}`
      : `sent with the Mcp-Session-Id of the session it ended: ${got.problem}`;
  if (got.body) {
    try {
      const parsed = JSON.parse(got.body) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        exchange.response = parsed as JsonObject;
    } catch {
      /* the note says what came */
    }
  }
  if (!exchange.response) exchange.noResponse = 'closed';
  sentAfterEnd(exchange, sentAt, got.status);
  return exchange;
}
