// tools/list in the same order every time: MCP 2026-07-28 says servers SHOULD (clients cache the
// listing, and prompt caches break on a reordered tool list). Live only: the run's first listing
// compared with every later first page of the run, and with the whole list once more, which this
// check asks for in the probe session (by then it holds every grant: a server that orders by state
// shows it there).
import { defineLiveCheck, type Exchange } from '../../src/plugin/index.js';
import { docOf } from './texts.js';

/** The names of a tools/list page in its order (undefined when it is no page of tools). */
function namesOf(ex: Exchange | undefined): string[] | undefined {
  const tools = (ex?.response?.result as { tools?: unknown } | undefined)?.tools;
  return Array.isArray(tools)
    ? tools.map((t) => {
        const name = (t as { name?: unknown } | null)?.name;
        return typeof name === 'string' ? name : '';
      })
    : undefined;
}

const same = (a: readonly string[], b: readonly string[]) => a.join('\n') === b.join('\n');
const sameSet = (a: readonly string[], b: readonly string[]) => same([...a].sort(), [...b].sort());

export default defineLiveCheck({
  id: 'listing-order',
  title: 'tools/list lists the tools in the same order every time',
  spec: { url: docOf('listing-order'), level: 'SHOULD' },
  needs: 'session',
  // The descriptions first: the probe then holds every grant when this check lists again.
  reads: ['descriptions', 'traffic'],
  messages: {
    'order-changed': {
      message: 'Two listings of tools/list gave the same tools in another order (first {first}, then {then}).',
      hint: "Sort the tools (by name, or in a fixed order of your own) before listing them: a reordered list breaks clients' caches.",
    },
  },
  async run(ctx) {
    const pages = ctx.discovery.toolsExchanges;
    const all = ctx.discovery.toolNames;
    if (!pages.length || !all.length) return;
    const fail = (then: readonly string[], proof: Exchange[]) => {
      const at = then.findIndex((name, i) => name !== all[i]);
      ctx.fail(
        'order-changed',
        { first: all.slice(at, at + 3), then: then.slice(at, at + 3) },
        { transcript: [...pages, ...proof] },
      );
    };
    // The whole list again, its cursors followed (as many pages as the first listing had, and one more).
    const again: Exchange[] = [];
    let cursor: string | undefined;
    do {
      const ex = await ctx.probe().request('tools/list', cursor === undefined ? undefined : { cursor });
      again.push(ex);
      const next = (ex.response?.result as { nextCursor?: unknown } | undefined)?.nextCursor;
      cursor = typeof next === 'string' ? next : undefined;
    } while (cursor !== undefined && again.length <= pages.length);
    const listed = again.flatMap((ex) => namesOf(ex) ?? []);
    if (sameSet(listed, all) && !same(listed, all)) return fail(listed, again);
    // Every later first page of the run that lists the same tools as the first page did.
    const firstPage = namesOf(pages[0]) ?? [];
    for (const session of ctx.facts.traffic)
      for (const ex of session.exchanges) {
        const request = ex.request as { method?: unknown; params?: { cursor?: unknown } };
        if (request.method !== 'tools/list' || request.params?.cursor !== undefined || pages.includes(ex)) continue;
        const page = namesOf(ex);
        if (page && sameSet(page, firstPage) && !same(page, firstPage)) return fail(page, [ex]);
      }
  },
});
