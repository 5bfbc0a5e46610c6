import { defineLiveCheck } from '../src/run/check.js';
import { MODEL_MESSAGES } from '../src/model/rules.js';
import { fetchDescriptions } from '../src/protocol/fetch.js';

export const UNKNOWN_TOOL = 'pd_check_no_such_tool';

/** What the model expects for unknown names (src/model/read.ts judges every read of the run). */
const messages = {
  ...MODEL_MESSAGES['pd-unknown-tool'],
} as const;

export default defineLiveCheck({
  id: 'pd-unknown-tool',
  title: 'Fetching an unknown tool name gives an entry with an error and the available tools',
  spec: {
    doc: 'progressive-disclosure', section: '6.3', level: 'SHOULD', criterion: 9,
    requirements: ['PD-6.3-a', 'PD-10.2-b'],
  },
  needs: 'session',
  reads: ['descriptions'],
  messages,
  async run(ctx) {
    const base = ctx.resourceUriOrSkip('unknown tool names');
    // Judged by the model with every other read of the run: alone, and beside a known name.
    const known = ctx.discovery.toolNames.find((n) => !n.includes(','));
    const got = await Promise.all([[UNKNOWN_TOOL], ...(known ? [[known, UNKNOWN_TOOL]] : [])].map((requested) => fetchDescriptions(ctx.probe(), base, requested)));
    ctx.unprovenIfSilent('each read of an unknown name', got.map((g) => g.exchange));
  },
});
