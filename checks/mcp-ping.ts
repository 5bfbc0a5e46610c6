import { LEGACY_ERA } from '../src/transport/era.js';
import { defineLiveCheck } from '../src/run/check.js';
import { isPlainObject } from '../src/protocol/payload.js';
import { clip, asText } from '../src/util/text.js';

const messages = {
  'ping-unanswered': {
    message: 'ping got no result: {problem}.',
    hint: 'Answer ping with an empty result, {} (MCP utilities: either party may ping, and the receiver MUST respond promptly).',
  },
  'ping-not-empty': {
    message: 'ping was answered with {result} instead of an empty result.',
    hint: 'Answer ping with {}: the spec says the result is empty.',
  },
} as const;

export default defineLiveCheck({
  id: 'mcp-ping',
  title: 'ping is answered promptly with an empty result',
  spec: { doc: 'mcp-base', section: 'Utilities: Ping', level: 'MUST', requirements: [] },
  // 2026-07-28 has no ping and no session to end.
  eras: [LEGACY_ERA],
  needs: 'session',
  messages,
  async run(ctx) {
    const ex = await ctx.probe().request('ping');
    const result = ex.response?.result;
    if (ex.response?.error !== undefined || result === undefined) {
      const error = ex.response?.error as { code?: unknown; message?: unknown } | undefined;
      const problem = error
        ? `error ${String(error.code)} (${clip(asText(error.message ?? ''), 120)})`
        : (ex.note ?? 'no response');
      ctx.fail('ping-unanswered', { problem }, { transcript: [ex] });
      return;
    }
    // The SDKs add nothing, but _meta is allowed in every result.
    const extra = isPlainObject(result) ? Object.keys(result).filter((k) => k !== '_meta') : ['(not an object)'];
    if (extra.length) ctx.warn('ping-not-empty', { result: clip(JSON.stringify(result), 120) }, { transcript: [ex] });
  },
});
