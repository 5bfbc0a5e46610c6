import { defineCheck } from '../src/check.js';
import type { LiveContext } from '../src/context.js';
import { fetchDescriptions, isDescriptionEntry } from '../src/pd/fetch.js';
import { listing } from '../src/text.js';

/** Each tool is fetched on its own; past this many, the rest are covered by the multi-tool fetch only. */
const MAX_SINGLE_FETCHES = 500;
/** How many names the multi-tool fetch asks for at once. */
const MULTI_FETCH_NAMES = 20;

export default defineCheck<LiveContext>({
  id: 'pd-tools-parameter',
  title: 'The resource accepts ?tools=a and ?tools=a,b, matching tool names exactly',
  spec: {
    doc: 'progressive-disclosure', section: '4.3', level: 'MUST', criterion: 3,
    requirements: ['PD-3.2-e', 'PD-4.3-a', 'PD-4.3-b', 'PD-4.3-c'],
  },
  needs: 'session',
  async run(ctx) {
    const base = ctx.resourceUriOrFail('the tools parameter');
    const names = ctx.discovery.toolNames;
    if (names.length === 0) ctx.skip('tools/list returned no tools, so there is no name to request.');
    const session = ctx.reader();
    const hint = "Parse the 'tools' query parameter, split it on commas, and return one entry per name, keyed by the exact name.";

    for (const name of names.filter((n) => n.includes(','))) {
      ctx.fail(`Tool '${name}' has a comma in its name, so it cannot be requested with ?tools= (names are comma-separated, §4.3).`, {
        location: { tool: name }, hint: 'Rename the tool: MCP tool names use only A-Z, a-z, 0-9, _, - and .',
      });
    }
    const requestable = names.filter((n) => !n.includes(','));

    for (const name of requestable.slice(0, MAX_SINGLE_FETCHES)) {
      const got = await fetchDescriptions(session, base, [name]);
      if (got.problem) {
        ctx.fail(`Fetching ?tools=${name} failed: ${got.problem}.`, { location: { tool: name }, transcript: [got.exchange], hint });
      } else if (!isDescriptionEntry(got.entries![name])) {
        ctx.fail(`Fetching ?tools=${name} returned no description under the key '${name}' (keys: ${listing(Object.keys(got.entries!)) || 'none'}).`, {
          location: { tool: name }, transcript: [got.exchange], hint,
        });
      }
    }
    if (requestable.length > MAX_SINGLE_FETCHES) {
      ctx.info(`Fetched the first ${MAX_SINGLE_FETCHES} of ${requestable.length} tools one by one; the rest only in the multi-tool fetch.`);
    }

    if (requestable.length >= 2) {
      const several = requestable.slice(0, MULTI_FETCH_NAMES);
      const got = await fetchDescriptions(session, base, several);
      const missing = got.entries ? several.filter((n) => !isDescriptionEntry(got.entries![n])) : several;
      if (got.problem || missing.length) {
        ctx.fail(`Fetching ${several.length} tools at once (?tools=${several.slice(0, 3).join(',')}…) ${got.problem ?? `returned no description for ${listing(missing)}`}; §4.3 requires comma-separated names to work.`, {
          transcript: [got.exchange], hint,
        });
      }
    }

    // Exact, case-sensitive matching: a name in another case is a different (unknown) tool.
    const probe = requestable.find((n) => swapCase(n) !== n && !names.includes(swapCase(n)));
    if (probe) {
      const altered = swapCase(probe);
      const got = await fetchDescriptions(session, base, [altered]);
      const entry = got.entries?.[altered] ?? got.entries?.[probe];
      if (isDescriptionEntry(entry)) {
        ctx.fail(`Fetching ?tools=${altered} returned the description of '${probe}': names must match tools/list exactly, case included (§4.3).`, {
          location: { tool: probe }, transcript: [got.exchange], hint: 'Look names up case-sensitively; treat a name in another case as unknown.',
        });
      }
    }
  },
});

function swapCase(s: string): string {
  return [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}
