import { defineLiveCheck } from '../src/check.js';
import { entryFor, fetchDescriptions, isDescriptionEntry } from '../src/pd/fetch.js';

/** Each tool is fetched on its own; past this many, the rest are covered by the multi-tool fetch only. */
const MAX_SINGLE_FETCHES = 500;
/** How many names the multi-tool fetch asks for at once. */
const MULTI_FETCH_NAMES = 20;

const HINT = "Parse the 'tools' query parameter, split it on commas, and return one entry per name, keyed by the exact name.";

const messages = {
  'no-tools-listed': 'tools/list returned no tools, so there is no name to request.',
  'comma-in-name': { message: "Tool '{tool}' has a comma in its name, so it cannot be requested with ?tools= (names are comma-separated, §4.3).", hint: 'Rename the tool: MCP tool names use only A-Z, a-z, 0-9, _, - and .' },
  'single-fetch-failed': { message: 'Fetching ?tools={tool} failed: {problem}.', hint: HINT },
  'single-fetch-no-entry': { message: "Fetching ?tools={tool} returned no description under the key '{tool}' (keys: {keys}).", hint: HINT },
  'single-fetches-capped': 'Fetched the first {fetched} of {total} tools one by one; the rest only in the multi-tool fetch.',
  'multi-fetch-failed': { message: 'Fetching {count} tools at once (?tools={sample}…) {problem}; §4.3 requires comma-separated names to work.', hint: HINT },
  'prefix-match': { message: "Fetching ?tools={prefix}, which is no tool's name, returned the description of '{tool}': names must match exactly, not by prefix (§4.3).", hint: 'Look names up exactly; a name that is not in tools/list is unknown (§6.3).' },
  'case-insensitive': { message: "Fetching ?tools={altered} returned the description of '{tool}': names must match tools/list exactly, case included (§4.3).", hint: 'Look names up case-sensitively; treat a name in another case as unknown.' },
} as const;

export default defineLiveCheck({
  id: 'pd-tools-parameter',
  title: 'The resource accepts ?tools=a and ?tools=a,b, matching tool names exactly',
  spec: {
    doc: 'progressive-disclosure', section: '4.3', level: 'MUST', criterion: 3,
    requirements: ['PD-3.2-e', 'PD-4.3-a', 'PD-4.3-b', 'PD-4.3-c'],
  },
  needs: 'session',
  messages,
  async run(ctx) {
    const base = await ctx.resourceUriOrSkip('the tools parameter');
    const names = ctx.discovery.toolNames;
    if (names.length === 0) ctx.skip('no-tools-listed');
    const session = ctx.reader();

    for (const name of names.filter((n) => n.includes(','))) ctx.fail('comma-in-name', { tool: name }, { location: { tool: name } });
    const requestable = names.filter((n) => !n.includes(','));

    for (const name of requestable.slice(0, MAX_SINGLE_FETCHES)) {
      const got = await fetchDescriptions(session, base, [name]);
      const extras = { location: { tool: name }, transcript: [got.exchange] };
      if (got.problem) ctx.fail('single-fetch-failed', { tool: name, problem: got.problem }, extras);
      else if (!isDescriptionEntry(entryFor(got.entries, name))) ctx.fail('single-fetch-no-entry', { tool: name, keys: Object.keys(got.entries!).length ? Object.keys(got.entries!) : 'none' }, extras);
    }
    if (requestable.length > MAX_SINGLE_FETCHES) ctx.info('single-fetches-capped', { fetched: MAX_SINGLE_FETCHES, total: requestable.length });

    if (requestable.length >= 2) {
      const several = requestable.slice(0, MULTI_FETCH_NAMES);
      const got = await fetchDescriptions(session, base, several);
      const missing = got.entries ? several.filter((n) => !isDescriptionEntry(entryFor(got.entries, n))) : several;
      if (got.problem || missing.length) {
        const problem = got.problem ?? `returned no description for ${missing.map((m) => `'${m}'`).slice(0, 8).join(', ')}${missing.length > 8 ? ` and ${missing.length - 8} more` : ''}`;
        ctx.fail('multi-fetch-failed', { count: several.length, sample: several.slice(0, 3).join(','), problem }, { transcript: [got.exchange] });
      }
    }

    // Exact matching, not by prefix: 'get' is not 'get_note'.
    const loose = loosePrefix(requestable);
    if (loose) {
      const got = await fetchDescriptions(session, base, [loose.prefix]);
      const entry = entryFor(got.entries, loose.prefix) ?? entryFor(got.entries, loose.tool);
      if (isDescriptionEntry(entry)) ctx.fail('prefix-match', loose, { location: { tool: loose.tool }, transcript: [got.exchange] });
    }

    // Exact, case-sensitive matching: a name in another case is a different (unknown) tool.
    const probe = requestable.find((n) => swapCase(n) !== n && !names.includes(swapCase(n)));
    if (probe) {
      const altered = swapCase(probe);
      const got = await fetchDescriptions(session, base, [altered]);
      const entry = entryFor(got.entries, altered) ?? entryFor(got.entries, probe);
      if (isDescriptionEntry(entry)) ctx.fail('case-insensitive', { tool: probe, altered }, { location: { tool: probe }, transcript: [got.exchange] });
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
