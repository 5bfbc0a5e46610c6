import { defineLiveCheck } from '../src/run/check.js';

const HINT = 'Answer with {"error":{"code":"MISSING_TOOL_SELECTION","message":…,"examples":[…?tools=…]}} (JSON text of the read, or JSON-RPC error data).';

/** What the model expects of a read without a selection (src/model/missing-selection.ts). */
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
  reads: ['descriptions'],
  messages,
  async run(ctx) {
    const base = ctx.resourceUriOrSkip('the missing-selection error');
    // DESIGN: an empty ?tools= counts as missing too. Both answers are judged by the model
    // (src/model/missing-selection.ts), with every such read of the run.
    await ctx.probe().readResource(base);
    await ctx.probe().readResource(`${base}${base.includes('?') ? '&' : '?'}tools=`);
  },
});
