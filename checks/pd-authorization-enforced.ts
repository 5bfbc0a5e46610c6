import { defineLiveCheck } from '../src/run/check.js';
import { MODEL_MESSAGES } from '../src/model/rules.js';
import { entryFor, fetchDescriptions, isDescriptionEntry } from '../src/protocol/fetch.js';
import { descriptionsUri } from '../src/protocol/uri.js';
import type { JsonObject } from '../src/transport/types.js';
import type { McpSession } from '../src/transport/session.js';
import { MODERN_ERA } from '../src/transport/era.js';

/**
 * What a session may do after a grant: list the tools, read another tool's description, an unknown
 * name, no selection, more names than a server takes (a refused read), ping — then call another
 * tool unfetched. None of it may take the grant away. The oversized read names the granted tool
 * too, so a server that takes it grants it again: it comes first, alone, and the rest at once after
 * it (had it come among them, a server that answered it after the listing would hide a listing that
 * clears grants — the verdict would depend on which request the server took first).
 */
async function sequels(
  session: McpSession,
  base: string,
  all: readonly string[],
  granted: string,
  call: (tool: string) => Promise<void>,
  extra: readonly string[],
): Promise<void> {
  // The other read names a tool outside the first ones tested, where there is one (their refusals unfetched still
  // come).
  const other = all.length > 1 ? all[all.length - 1] : undefined;
  await session.readResource(descriptionsUri(base, [granted, ...extra]));
  await Promise.all([
    session.request('tools/list', {}),
    ...(other && other !== granted ? [session.readResource(descriptionsUri(base, [other]))] : []),
    session.readResource(descriptionsUri(base, ['pd_check_no_such_tool'])),
    session.readResource(base),
    ...(session.era !== MODERN_ERA ? [session.request('ping', {})] : []),
  ]);
  const unfetched = all.find((t) => t !== granted && t !== other);
  if (unfetched) await call(unfetched);
}

/** How often an authorized tool is called in a row ("authorization persists"). */
const REPEAT_CALLS = 2;
/**
 * The tools whose authorization is tested one by one (fetch, calls, the next one refused). The
 * rule is the same for every tool; on a server with thousands, a sample this large proves it
 * without 40,000 requests.
 */
const SAMPLE = 100;
/** Names in the oversized read: more than a server that limits fetches (§10.3) takes at once. */
const OVERSIZED_READ = 100;

/** What the model expects of grants within a session (src/model/ judges every exchange of the run). */
const messages = {
  ...MODEL_MESSAGES['pd-authorization-enforced'],
  'unfetched-not-called': "'{tool}' was not called in this check's session: {why}.",
  sampled: 'Authorization was tested tool by tool for the first {tested} of {total} tools (the same rule for each).',
} as const;

export default defineLiveCheck({
  id: 'pd-authorization-enforced',
  title: 'Fetching a tool authorizes exactly that tool for the rest of the session; failed fetches authorize nothing',
  spec: {
    doc: 'progressive-disclosure',
    section: '5.1',
    level: 'MUST',
    criterion: 6,
    requirements: ['PD-5.1-a', 'PD-5.1-b', 'PD-5.1-d'],
  },
  needs: 'session',
  reads: ['unfetched-calls', 'descriptions'],
  opens: 1,
  sessionUse:
    'a new session: failed and refused fetches, then each tool fetched and called one by one (the next one called unfetched); the first grant is called again after every kind of request a session may make next (a listing, other reads and ping at once, then another call) and once more at the end of the run, after every other check',
  messages,
  async run(ctx) {
    const base = ctx.resourceUriOrSkip('authorization');
    // Read-only tools first: unfetched calls go to them before any other.
    const all = ctx.toolsToCallOrStop();
    const tools = all.slice(0, SAMPLE);
    if (all.length > SAMPLE) ctx.info('sampled', { tested: SAMPLE, total: all.length });
    const session = await ctx.session();
    /** Fetched entries of this session: their examples are the arguments of authorized calls. */
    const entries = new Map<string, JsonObject>();
    const said = new Set<string>();
    const call = async (name: string) => {
      const ex = await ctx.call(session, name, { entry: entries.get(name) });
      if (!ex && !said.has(name)) {
        said.add(name);
        ctx.info('unfetched-not-called', { tool: name, why: ctx.whyNotCalled(name) }, { location: { tool: name } });
      }
    };

    // 1. Failed and unknown fetches authorize nothing; neither does a read the server refuses
    // (more names than it takes, §10.3), even for the known name in it. The reads go together,
    // then the calls; the model judges them. With many tools the oversized read asks for known
    // tools outside the sample; with few, for the last read-only tool (one that may be called
    // unfetched) and distinct unknown names.
    const spare = all.slice(SAMPLE, SAMPLE + OVERSIZED_READ + 1);
    const probed = [...tools].reverse().find((t) => ctx.tools.isReadOnly(t)) ?? tools[tools.length - 1];
    const oversized =
      spare.length > OVERSIZED_READ
        ? spare
        : [probed, ...Array.from({ length: OVERSIZED_READ }, (_, k) => `pd_check_no_such_tool_${k + 1}`)];
    const failing = [
      base,
      `${base}?tools=`,
      `${base}?tools=pd_check_no_such_tool`,
      ...(all.length > 1 ? [descriptionsUri(base, oversized)] : []),
    ];
    await Promise.all(failing.map((uri) => session.readResource(uri)));
    await Promise.all([call(tools[0]), ...(all.length > 1 && oversized[0] !== tools[0] ? [call(oversized[0])] : [])]);

    // 2. Each fetch authorizes that tool, call after call, and no other: once it is fetched, its
    // calls and the next tool's (unfetched) go together. The first grant also meets every one-step
    // sequel a session may make, each in turn, and is called after them (in every run, not left to
    // the exploration's seed): a grant lasts whatever else the session does (§5.1).
    for (const [i, name] of tools.entries()) {
      const fetched = await fetchDescriptions(session, base, [name]);
      const entry = entryFor(fetched.entries, name);
      if (isDescriptionEntry(entry)) entries.set(name, entry);
      const next = tools[i + 1];
      if (i === 0) {
        await call(name);
        // The refused read's other names: tools outside the sample where there are that many (each
        // unknown name would be answered with every tool's name: with 10,000 tools, 12 MB).
        await sequels(
          session,
          base,
          all,
          name,
          call,
          spare.length > OVERSIZED_READ
            ? spare.slice(0, OVERSIZED_READ)
            : Array.from({ length: OVERSIZED_READ }, (_, k) => `pd_check_no_such_tool_${k + 1}`),
        );
        await Promise.all([call(name), ...(next ? [call(next)] : [])]);
        continue;
      }
      await Promise.all([...Array.from({ length: REPEAT_CALLS }, () => call(name)), ...(next ? [call(next)] : [])]);
    }

    // 3. Later in the session every grant still holds; one once more at the very end of the run,
    // after every other check: a grant lasts for the lifetime of the session (§5.1). That one is a
    // tool that answered (a slow tool would only make the run wait).
    await Promise.all(tools.map(call));
    const granted = ctx.callsMade().filter((c) => c.fetched);
    ctx.unprovenIfSilent(
      'every call of a fetched tool',
      granted.map((c) => c.exchange),
    );
    const answered = granted.find((c) => !c.exchange.noResponse)?.tool;
    if (answered) ctx.atEnd(() => call(answered));
  },
});
