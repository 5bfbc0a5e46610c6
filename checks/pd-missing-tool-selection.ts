import { defineLiveCheck } from '../src/run/check.js';
import { MODEL_MESSAGES } from '../src/model/rules.js';
import { MISSING_TOOL_SELECTION } from '../src/protocol/calls.js';
import { findSignalledError } from '../src/protocol/errors.js';
import { asText } from '../src/util/text.js';
import { isRateLimit } from '../src/model/read.js';
import type { Exchange } from '../src/transport/types.js';

/** What the model expects of a read without a selection (src/model/missing-selection.ts). */
const messages = {
  ...MODEL_MESSAGES['pd-missing-tool-selection'],
  proof: 'Reading {uri} was answered with MISSING_TOOL_SELECTION ({form}).',
  'read-again-after-rate-limit':
    'The server rate-limited a read without a selection: it was read again after {seconds} s, as its retryAfter asked (§10.3 lets a server limit reads; a rate limit proves nothing here).',
} as const;

/** The longest retryAfter waited for (s): a rate limit's window is a minute. */
const MAX_RETRY_AFTER_S = 60;

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
    const uris = [base, `${base}${base.includes('?') ? '&' : '?'}tools=`];
    const got = await Promise.all(uris.map((uri) => ctx.probe().readResource(uri)));
    // A server that limits reads (§10.3) may refuse these past its budget: read again once, after the
    // wait it asks for, so that a correct server with a rate limit is proven, never failed.
    const limited = got.map((ex) => retryAfterOf(ex));
    const wait = Math.max(...limited.filter((s): s is number => s !== undefined), 0);
    if (limited.some((s) => s !== undefined) && wait <= MAX_RETRY_AFTER_S) {
      ctx.info('read-again-after-rate-limit', { seconds: wait });
      await new Promise((done) => setTimeout(done, wait * 1000));
      for (const [i, seconds] of limited.entries())
        if (seconds !== undefined) got[i] = await ctx.probe().readResource(uris[i]);
    }
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

/** The seconds a rate-limited read asks to wait (its data.retryAfter; 1 when it gives none); undefined if not rate-limited. */
function retryAfterOf(ex: Exchange): number | undefined {
  if (!isRateLimit(ex)) return undefined;
  const data = (ex.response?.error as { data?: { retryAfter?: unknown } } | undefined)?.data;
  return typeof data?.retryAfter === 'number' && data.retryAfter >= 0 ? Math.ceil(data.retryAfter) : 1;
}
