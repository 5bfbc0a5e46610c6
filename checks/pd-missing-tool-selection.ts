import { defineLiveCheck } from '../src/run/check.js';
import { MODEL_MESSAGES } from '../src/model/rules.js';
import { MISSING_TOOL_SELECTION } from '../src/protocol/calls.js';
import { findSignalledError } from '../src/protocol/errors.js';
import { asText } from '../src/util/text.js';

/** What the model expects of a read without a selection (src/model/missing-selection.ts). */
const messages = {
  ...MODEL_MESSAGES['pd-missing-tool-selection'],
  proof: 'Reading {uri} was answered with MISSING_TOOL_SELECTION ({form}).',
} as const;

export default defineLiveCheck({
  id: 'pd-missing-tool-selection',
  title: 'Reading the resource without ?tools= gives MISSING_TOOL_SELECTION',
  spec: {
    doc: 'progressive-disclosure',
    section: '6.1',
    level: 'MUST',
    criterion: 5,
    requirements: ['PD-4.3-d', 'PD-6.1-a'],
  },
  needs: 'session',
  reads: ['descriptions'],
  messages,
  async run(ctx) {
    const base = ctx.resourceUriOrSkip('the missing-selection error');
    // DESIGN: an empty ?tools= counts as missing too. Both answers are judged by the model
    // (src/model/missing-selection.ts), with every such read of the run.
    const got = await Promise.all([
      ctx.probe().readResource(base),
      ctx.probe().readResource(`${base}${base.includes('?') ? '&' : '?'}tools=`),
    ]);
    ctx.unprovenIfSilent('each read without a selection', got);
    const signalled = got
      .map((ex) => ({ ex, signal: findSignalledError(ex, MISSING_TOOL_SELECTION) }))
      .find((s) => s.signal?.accepted);
    if (signalled)
      ctx.prove(
        'proof',
        {
          uri: asText((signalled.ex.request.params as { uri?: unknown } | undefined)?.uri ?? base),
          form: signalled.signal!.form,
        },
        [signalled.ex],
      );
  },
});
