import { defineLiveCheck } from '../src/check.js';
import { MISSING_TOOL_SELECTION } from '../src/pd/calls.js';
import { anySignalledCode, findSignalledError, invalidErrorCode } from '../src/pd/errors.js';
import { isDescriptionEntry } from '../src/pd/fetch.js';
import { isPlainObject, resourceJson } from '../src/pd/payload.js';
import { requestedTools } from '../src/pd/uri.js';

const HINT = 'Answer with {"error":{"code":"MISSING_TOOL_SELECTION","message":…,"examples":[…?tools=…]}} (JSON text of the read, or JSON-RPC error data).';

const messages = {
  'invalid-error-code': { message: 'Reading {uri} ({what}): {problem}; clients drop such replies.', hint: HINT },
  'not-signalled': { message: 'Reading {uri} ({what}) did not give MISSING_TOOL_SELECTION; {instead}.', hint: HINT },
  'only-in-text': { message: 'Reading {uri} ({what}) mentions MISSING_TOOL_SELECTION only in a message text, where a client cannot read it as a code.', hint: HINT },
  'no-message': { message: 'The MISSING_TOOL_SELECTION error ({what}) has no message (§6.1 shows one).', hint: 'Add "message": "You must specify one or more tool names in the \'tools\' parameter."' },
  'no-example-uris': { message: 'The MISSING_TOOL_SELECTION error ({what}) gives no example URIs with ?tools= (§6.1 shows them).', hint: 'Add "examples": ["resource:///tool_descriptions?tools=tool_name", …].' },
  'signalled-as': 'Signalled as: {forms}.',
  'example-unknown-tool': { message: 'The MISSING_TOOL_SELECTION error ({what}) gives the example {uri}, which names {tools}: no tool of this server.', hint: 'Build the example URIs from real tool names, so that a client can follow them.' },
} as const;

export default defineLiveCheck({
  id: 'pd-missing-tool-selection',
  title: 'Reading the resource without ?tools= gives MISSING_TOOL_SELECTION',
  spec: {
    doc: 'progressive-disclosure', section: '6.1', level: 'MUST', criterion: 5,
    requirements: ['PD-4.3-d', 'PD-6.1-a'],
  },
  needs: 'session',
  messages,
  async run(ctx) {
    const base = await ctx.resourceUriOrSkip('the missing-selection error');
    const forms = new Set<string>();
    // DESIGN: an empty ?tools= counts as missing too.
    for (const [uri, what] of [[base, 'without ?tools='], [`${base}${base.includes('?') ? '&' : '?'}tools=`, 'with an empty ?tools=']] as const) {
      const ex = await ctx.reader().readResource(uri);
      const transcript = [ex];
      const bad = invalidErrorCode(ex);
      if (bad) {
        ctx.fail('invalid-error-code', { uri, what, problem: bad }, { transcript });
        continue;
      }
      const signal = findSignalledError(ex, MISSING_TOOL_SELECTION);
      if (!signal) {
        ctx.fail('not-signalled', { uri, what, instead: whatCameInstead(ex, ctx.discovery.toolNames) }, { transcript });
        continue;
      }
      if (!signal.accepted) {
        ctx.fail('only-in-text', { uri, what }, { transcript });
        continue;
      }
      forms.add(signal.form);
      if (typeof signal.payload.message !== 'string' || !signal.payload.message.trim()) ctx.warn('no-message', { what }, { transcript });
      const examples = signal.payload.examples;
      if (!Array.isArray(examples) || !examples.some((e) => typeof e === 'string' && e.includes('?tools='))) ctx.warn('no-example-uris', { what }, { transcript });
      for (const uri of Array.isArray(examples) ? examples.filter((e): e is string => typeof e === 'string') : []) {
        const unknown = (requestedTools(uri) ?? []).filter((n) => n && !ctx.discovery.toolNames.includes(n));
        if (unknown.length) ctx.warn('example-unknown-tool', { what, uri, tools: unknown }, { transcript });
      }
    }
    if (forms.size) ctx.info('signalled-as', { forms: [...forms].join(', ') });
  },
});

function whatCameInstead(ex: Parameters<typeof resourceJson>[0], toolNames: string[]): string {
  if (ex.noResponse) return `no response came (${ex.note ?? ex.noResponse})`;
  const other = anySignalledCode(ex);
  if (other) return `it returned the error code ${other} instead`;
  if (ex.response?.error) return 'it returned a JSON-RPC error without the code in data.code';
  const payload = resourceJson(ex);
  if (isPlainObject(payload.value) && toolNames.some((n) => isDescriptionEntry((payload.value as Record<string, unknown>)[n]))) {
    return 'it returned tool descriptions instead, which defeats progressive disclosure';
  }
  return 'it returned a result without the error';
}
