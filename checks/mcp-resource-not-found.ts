import { MODERN_ERA } from '../src/transport/era.js';
import { defineLiveCheck } from '../src/run/check.js';
import { isPlainObject } from '../src/protocol/payload.js';
import { clip, asText } from '../src/util/text.js';

/** A URI no server serves: under the scheme progressive disclosure uses, beside tool_descriptions. */
export const NO_SUCH_RESOURCE = 'resource:///mcp-pd-check/no-such-resource';
/** The code of an unknown resource in 2026-07-28 (Invalid Params); earlier versions used -32002. */
const NOT_FOUND = -32602;
const LEGACY_NOT_FOUND = -32002;

const messages = {
  'legacy-not-found-code': {
    message: `Reading a resource that does not exist ({uri}) was answered with ${LEGACY_NOT_FOUND}, the code of earlier versions; 2026-07-28 requires ${NOT_FOUND} (Invalid Params).`,
    hint: `Answer a read of an unknown resource with the JSON-RPC error ${NOT_FOUND} when the request is of 2026-07-28 (clients of 2025-11-25 still expect ${LEGACY_NOT_FOUND}).`,
  },
  'wrong-not-found-code': {
    message: `Reading a resource that does not exist ({uri}) was answered with error {code} ({text}); 2026-07-28 requires ${NOT_FOUND} (Invalid Params).`,
    hint: `Answer a read of an unknown resource with the JSON-RPC error ${NOT_FOUND}; keep -32603 for internal errors.`,
  },
  'empty-contents': {
    message:
      'Reading a resource that does not exist ({uri}) was answered with an empty contents array: a client cannot tell it from an empty resource.',
    hint: `Answer a read of an unknown resource with the JSON-RPC error ${NOT_FOUND}, never with empty contents.`,
  },
  unanswered: {
    message: 'Reading a resource that does not exist ({uri}) got no answer: {problem}.',
    hint: `Answer every resources/read; an unknown resource is the error ${NOT_FOUND}.`,
  },
  served:
    'The server answered a read of {uri} with contents: it serves URIs it does not list (a template or a catch-all), so what it does for an unknown one cannot be seen.',
  'no-resources':
    'The server declares no resources capability and lists no resources: there is no resources/read to check.',
} as const;

export default defineLiveCheck({
  id: 'mcp-resource-not-found',
  title: `A read of a resource that does not exist is the error ${NOT_FOUND}, never empty contents (2026-07-28)`,
  spec: { doc: 'mcp-base', section: '2026-07-28: Resources, Error Handling', level: 'MUST', requirements: [] },
  // 2025-11-25 used -32002 for the same answer; only 2026-07-28 fixes the code.
  eras: [MODERN_ERA],
  needs: 'session',
  messages,
  async run(ctx) {
    const { capabilities, resources } = ctx.discovery;
    if (!isPlainObject(capabilities.resources) && !resources.length) ctx.skip('no-resources');
    const uri = NO_SUCH_RESOURCE;
    const ex = await ctx.probe().request('resources/read', { uri });
    const proof = { transcript: [ex] };
    const error = ex.response?.error;
    const result = ex.response?.result;
    if (isPlainObject(error)) {
      if (error.code === NOT_FOUND) return;
      if (error.code === LEGACY_NOT_FOUND) return ctx.fail('legacy-not-found-code', { uri }, proof);
      return ctx.fail(
        'wrong-not-found-code',
        { uri, code: String(error.code), text: clip(asText(error.message ?? ''), 100) },
        proof,
      );
    }
    if (!isPlainObject(result))
      return ctx.fail(
        'unanswered',
        { uri, problem: ex.note ?? ex.noResponse ?? 'neither a result nor an error' },
        proof,
      );
    const contents = result.contents;
    if (Array.isArray(contents) && contents.length === 0) return ctx.fail('empty-contents', { uri }, proof);
    ctx.info('served', { uri });
  },
});
