import { defineLiveCheck } from '../src/run/check.js';
import { MODEL_MESSAGES } from '../src/model/rules.js';
import { entryFor, fetchDescriptions, isDescriptionEntry } from '../src/protocol/fetch.js';
import { mapLimit } from '../src/util/concurrency.js';

/** Each tool is fetched on its own; past this many, the rest are covered by the multi-tool fetch only. */
const MAX_SINGLE_FETCHES = 500;
/** How many names the multi-tool fetch asks for at once. */
const MULTI_FETCH_NAMES = 20;
/** Reads in flight at once. */
const READS_AT_ONCE = 8;

/** What the model expects of names in ?tools= (src/model/read.ts judges every read of the run). */
const messages = {
  ...MODEL_MESSAGES['pd-tools-parameter'],
  'no-tools-listed': 'tools/list returned no tools, so there is no name to request.',
  'comma-in-name': {
    message:
      "Tool '{tool}' has a comma in its name, so it cannot be requested with ?tools= (names are comma-separated, §4.3).",
    hint: 'Rename the tool: MCP tool names use only A-Z, a-z, 0-9, _, - and .',
  },
  proof: '?tools={one} returned its description{pair}.',
  'single-fetches-capped':
    'Fetched the first {fetched} of {total} tools one by one; the rest only in the multi-tool fetch.',
} as const;

export default defineLiveCheck({
  id: 'pd-tools-parameter',
  title: 'The resource accepts ?tools=a and ?tools=a,b, matching tool names exactly',
  spec: {
    doc: 'progressive-disclosure',
    section: '4.3',
    level: 'MUST',
    criterion: 3,
    requirements: ['PD-3.2-e', 'PD-4.3-a', 'PD-4.3-b', 'PD-4.3-c'],
  },
  needs: 'session',
  reads: ['descriptions'],
  messages,
  async run(ctx) {
    const base = ctx.resourceUriOrSkip('the tools parameter');
    const names = ctx.discovery.toolNames;
    if (names.length === 0) ctx.skip('no-tools-listed');
    const session = ctx.probe();

    for (const name of names.filter((n) => n.includes(',')))
      ctx.fail('comma-in-name', { tool: name }, { location: { tool: name } });
    const requestable = names.filter((n) => !n.includes(','));
    // The reads below are judged by the model, with every other read of the run (the probe holds
    // every grant, so their order does not matter: they go several at a time).
    const reads = requestable.slice(0, MAX_SINGLE_FETCHES).map((name) => [name]);
    if (requestable.length > MAX_SINGLE_FETCHES)
      ctx.info('single-fetches-capped', { fetched: MAX_SINGLE_FETCHES, total: requestable.length });
    // The proof's two reads (one name, several) go first: a server that limits fetches per minute
    // (§10.3) answers them before it refuses the rest of a large catalog's.
    if (requestable.length >= 2) reads.splice(1, 0, requestable.slice(0, MULTI_FETCH_NAMES));
    // Names that resemble a tool's but are none: 'get' for 'get_note', and another case.
    const loose = loosePrefix(requestable);
    if (loose) reads.push([loose.prefix]);
    const probe = requestable.find((n) => swapCase(n) !== n && !names.includes(swapCase(n)));
    if (probe) reads.push([swapCase(probe)]);
    const got = await mapLimit(reads, READS_AT_ONCE, (requested) => fetchDescriptions(session, base, requested));
    ctx.unprovenIfSilent(
      'every read of ?tools=',
      got.map((g) => g.exchange),
    );
    // Its proof: a read of one name and one of several, each answered with every description asked for.
    const answered = (k: number) =>
      got[k] && reads[k].every((n) => isDescriptionEntry(entryFor(got[k].entries, n))) ? got[k] : undefined;
    const single = reads.findIndex((r, k) => r.length === 1 && requestable.includes(r[0]) && answered(k));
    const multi = reads.findIndex((r, k) => r.length >= 2 && answered(k));
    if (single >= 0 && (multi >= 0 || requestable.length < 2)) {
      const pair =
        multi >= 0
          ? `, and ?tools=${reads[multi].slice(0, 3).join(',')}${reads[multi].length > 3 ? ',…' : ''} returned all ${reads[multi].length}`
          : ' (the server lists one tool, so no pair could be asked for)';
      ctx.prove('proof', { one: reads[single][0], pair }, [
        got[single].exchange,
        ...(multi >= 0 ? [got[multi].exchange] : []),
      ]);
    }
  },
});

/** A proper prefix of a tool name that is no tool's name itself ('get' for 'get_note'), if there is one. */
function loosePrefix(names: string[]): { prefix: string; tool: string } | undefined {
  for (const tool of names) {
    const prefix = tool.slice(0, Math.max(1, Math.ceil(tool.length / 2))).replace(/[_.-]+$/, '');
    if (prefix && prefix !== tool && !names.includes(prefix)) return { prefix, tool };
  }
  return undefined;
}

function swapCase(s: string): string {
  return [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}
