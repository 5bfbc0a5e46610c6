import { defineLiveCheck } from '../src/run/check.js';
import { MODEL_MESSAGES } from '../src/model/rules.js';
import { entryFor, fetchDescriptions } from '../src/protocol/fetch.js';
import { isPlainObject } from '../src/protocol/payload.js';

export const UNKNOWN_TOOL = 'pd_check_no_such_tool';

/** What the model expects for unknown names (src/model/read.ts judges every read of the run). */
const messages = {
  ...MODEL_MESSAGES['pd-unknown-tool'],
  proof: "?tools={name} returned an entry for '{name}' with an error and available_tools ({count|name}).",
} as const;

export default defineLiveCheck({
  id: 'pd-unknown-tool',
  title: 'Fetching an unknown tool name gives an entry with an error and the available tools',
  spec: {
    doc: 'progressive-disclosure',
    section: '6.3',
    level: 'SHOULD',
    criterion: 9,
    requirements: ['PD-6.3-a', 'PD-10.2-b'],
  },
  needs: 'session',
  reads: ['descriptions'],
  messages,
  async run(ctx) {
    const base = ctx.resourceUriOrSkip('unknown tool names');
    // Judged by the model with every other read of the run: alone, and beside a known name.
    const known = ctx.discovery.toolNames.find((n) => !n.includes(','));
    const got = await Promise.all(
      [[UNKNOWN_TOOL], ...(known ? [[known, UNKNOWN_TOOL]] : [])].map((requested) =>
        fetchDescriptions(ctx.probe(), base, requested),
      ),
    );
    ctx.unprovenIfSilent(
      'each read of an unknown name',
      got.map((g) => g.exchange),
    );
    const entry = entryFor(got[0]?.entries, UNKNOWN_TOOL);
    if (isPlainObject(entry) && entry.error !== undefined && Array.isArray(entry.available_tools))
      ctx.prove('proof', { name: UNKNOWN_TOOL, count: entry.available_tools.length }, [got[0].exchange]);
  },
});
