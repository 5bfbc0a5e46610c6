import { LEGACY_ERA } from '../src/transport/era.js';
import { defineLiveCheck } from '../src/run/check.js';
import { MODEL_MESSAGES } from '../src/model/rules.js';
import type { Exchange, JsonObject } from '../src/transport/types.js';

/** What MCP's Streamable HTTP session management requires; the 404 rule is the model's (src/model/judge.ts). */
const messages = {
  ...MODEL_MESSAGES['mcp-session-lifecycle'],
  'no-session-accepted': {
    message:
      'A tools/list without Mcp-Session-Id, from a client that never initialized, was answered HTTP {status}: a server that issues session ids SHOULD refuse such a request with 400 Bad Request.',
    hint: 'Answer 400 to every request but initialize that carries no Mcp-Session-Id; never serve it in some other session.',
  },
  stateless:
    'The server issued no Mcp-Session-Id: it is stateless, so there is no session to end (nothing to test here).',
  'not-streamable': 'The server speaks the older HTTP+SSE transport, which has no Mcp-Session-Id.',
  tested: 'A session was ended with DELETE and its id sent once more; a request without any session id was sent.',
} as const;

export default defineLiveCheck({
  id: 'mcp-session-lifecycle',
  title: 'Streamable HTTP sessions: a terminated session id is answered 404, a request without one 400',
  spec: { doc: 'mcp-base', section: 'Transports: Session Management', level: 'MUST', requirements: [] },
  // 2026-07-28 has no session: nothing to start, end or refuse without an id.
  eras: [LEGACY_ERA],
  needs: 'http',
  messages,
  async run(ctx) {
    if (ctx.transport !== 'streamable-http') {
      return ctx.skip('not-streamable');
    }
    const session = await ctx.session({ fresh: true });
    await session.close();
    // The exchange is judged by the model, with every other exchange of the run: 404 is its rule.
    const after = await session.requestAfterEnd();
    if (!after) {
      return ctx.skip('stateless');
    }
    const list: JsonObject = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const got = await ctx.httpProbe(list, {});
    const ex: Exchange = {
      session: 'probe (no session)',
      method: 'tools/list',
      request: list,
      durationMs: 0,
      noResponse: 'closed',
      note: `POST ${got.url} without Mcp-Session-Id: ${got.status !== undefined ? `HTTP ${got.status}` : got.problem}`,
    };
    if (got.status !== undefined && got.status >= 200 && got.status < 300)
      ctx.warn('no-session-accepted', { status: got.status }, { transcript: [ex] });
    ctx.info('tested');
  },
});
