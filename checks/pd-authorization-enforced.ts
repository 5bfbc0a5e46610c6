import { defineLiveCheck } from '../src/check.js';
import type { LiveContext } from '../src/context.js';
import { classifyCall } from '../src/pd/calls.js';
import { entryFor, fetchDescriptions, isDescriptionEntry } from '../src/pd/fetch.js';
import { descriptionsUri } from '../src/pd/uri.js';
import type { Exchange, JsonObject } from '../src/target/types.js';

/** How often an authorized tool is called in a row ("authorization persists"). */
const REPEAT_CALLS = 2;
/**
 * The tools whose authorization is tested one by one (fetch, calls, the next one refused). The
 * rule is the same for every tool; on a server with thousands, a sample this large proves it
 * without 40,000 requests.
 */
const SAMPLE = 100;

const messages = {
  'failed-fetch-authorized': {
    message: "This session had made only failed or unknown-name fetches, yet calling '{tool}' was not refused: those fetches must authorize nothing, and no grant may come from another session (§5.1).",
    hint: 'Grant a tool only when its description was returned, per session; if pd-session-isolation fails too, grants are shared between sessions.',
  },
  'fetch-no-description': { message: 'Fetching ?tools={tool} failed ({problem}), so authorization could not be tested for it.', hint: 'Make ?tools=<name> return the description (criterion 3).' },
  'refused-read-authorized': {
    message: "A read of {names} names, which the server refused, still authorized '{tool}': a refused or failed fetch must authorize nothing (§5.1).",
    hint: 'Check the request (size, names, rate) before granting anything, and grant only what the answer actually describes.',
  },
  'grant-not-kept': {
    message: "Calling '{tool}' {when} was refused with {code} (call {call} of {of}): authorization must last for the whole session (§5.1).",
    hint: 'Keep the grant for the session: do not consume it on first use or expire it early.',
  },
  'call-no-response': { message: "Calling '{tool}' {when} got no response ({note}) (call {call} of {of}).", hint: 'Answer every tools/call within the timeout.' },
  'unfetched-not-called': "'{tool}' was not called unfetched: {why}.",
  'sampled': 'Authorization was tested tool by tool for the first {tested} of {total} tools (the same rule for each).',
  'fetch-authorized-other': {
    message: "Calling '{tool}' was not refused although only {fetched} had been fetched: fetching a tool must authorize only that tool.",
    hint: 'Record grants per tool name, not as a single "has fetched something" flag.',
  },
} as const;

type Ctx = LiveContext<keyof typeof messages>;

export default defineLiveCheck({
  id: 'pd-authorization-enforced',
  title: 'Fetching a tool authorizes exactly that tool for the rest of the session; failed fetches authorize nothing',
  spec: {
    doc: 'progressive-disclosure', section: '5.1', level: 'MUST', criterion: 6,
    requirements: ['PD-5.1-a', 'PD-5.1-b', 'PD-5.1-d'],
  },
  needs: 'session',
  runs: 'before-other-fetches',
  opens: 1,
  sessionUse: 'a new session whose grants are known exactly (it fetches the tools one by one), kept open to the end of the run, when its first grant is called once more; criterion 8 borrows it as the session that fetched everything',
  messages,
  async run(ctx) {
    const base = await ctx.resourceUriOrSkip('authorization');
    // Read-only tools first: unfetched calls below go to them before any other.
    const all = ctx.calls.order(ctx.toolsToCallOrStop());
    const tools = all.slice(0, SAMPLE);
    if (all.length > SAMPLE) ctx.info('sampled', { tested: SAMPLE, total: all.length });
    const session = await ctx.session();
    /** Fetched entries of this session: their examples are the arguments of authorized calls. */
    const entries = new Map<string, JsonObject>();
    const call = (name: string) => session.callTool(name, ctx.calls.arguments(name, entries.get(name)));
    /** A call to a tool this session has not fetched: only where the ledger allows it. */
    const callUnfetched = async (name: string): Promise<Exchange | undefined> => {
      const why = ctx.calls.unfetchedRefusal(name);
      if (why) {
        ctx.info('unfetched-not-called', { tool: name, why }, { location: { tool: name } });
        ctx.calls.skip(name, why);
        return undefined;
      }
      const ex = await session.callTool(name, ctx.calls.unfetchedArguments());
      ctx.calls.recordUnfetched(name, ex);
      return ex;
    };

    // 1. Failed and unknown fetches must not authorize anything.
    const failedFetches: Exchange[] = [];
    for (const uri of [base, `${base}?tools=`, `${base}?tools=pd_check_no_such_tool`]) failedFetches.push(await session.readResource(uri));
    const first = await callUnfetched(tools[0]!);
    if (first && classifyCall(first).kind === 'authorized') {
      ctx.fail('failed-fetch-authorized', { tool: tools[0] }, { location: { tool: tools[0] }, transcript: [...failedFetches, first] });
    }

    // A read the server refuses (here: more names than it takes, §10.3) must authorize nothing
    // either, even for the known name in it: a server that grants before it checks fails this.
    const preAuthorized = new Set<string>();
    // With many tools the read asks for known tools outside the sample (a cheap answer if the
    // server takes them all); with few, for one known tool and distinct unknown names.
    const spare = all.slice(SAMPLE, SAMPLE + OVERSIZED_READ + 1);
    const oversizedNames = spare.length > OVERSIZED_READ ? spare : [tools[tools.length - 1]!, ...Array.from({ length: OVERSIZED_READ }, (_, k) => `pd_check_no_such_tool_${k + 1}`)];
    const probed = oversizedNames[0]!;
    if (all.length > 1) {
      const oversized = await session.readResource(descriptionsUri(base, oversizedNames));
      if (readSucceeded(oversized)) {
        preAuthorized.add(probed); // the server takes that many names: the fetch authorized it, as it should
      } else {
        const ex = await callUnfetched(probed);
        if (ex && classifyCall(ex).kind === 'authorized') ctx.fail('refused-read-authorized', { tool: probed, names: oversizedNames.length }, { location: { tool: probed }, transcript: [oversized, ex] });
      }
    }

    // 2. Fetch the tools one by one: each fetch authorizes that tool, persistently, and no other.
    // A read that succeeded is a fetch, whatever its payload looks like (that is criterion 4's business).
    const granted: string[] = [];
    for (const [i, name] of tools.entries()) {
      const fetched = await fetchDescriptions(session, base, [name]);
      if (!readSucceeded(fetched.exchange)) {
        ctx.fail('fetch-no-description', { tool: name, problem: fetched.problem ?? 'the read failed' }, { location: { tool: name }, transcript: [fetched.exchange] });
        continue;
      }
      const entry = entryFor(fetched.entries, name);
      if (isDescriptionEntry(entry)) entries.set(name, entry);
      granted.push(name);
      // Criterion 8 reuses this session as the one that fetched everything.
      ctx.run.authorizedSession = { session, granted: new Set(granted), entries, lastFetch: fetched.exchange };
      await expectAuthorized(ctx, name, REPEAT_CALLS, [fetched.exchange], call, 'right after fetching it');
      const next = tools[i + 1];
      if (next && !preAuthorized.has(next)) {
        const ex = await callUnfetched(next);
        if (ex && classifyCall(ex).kind === 'authorized') {
          ctx.fail('fetch-authorized-other', { tool: next, fetched: tools.slice(0, i + 1) }, { location: { tool: next }, transcript: [fetched.exchange, ex] });
        }
      }
    }

    // 3. Later in the session, every earlier grant still holds; and once more at the very end of
    // the run, after every other check: a grant lasts for the lifetime of the session (§5.1).
    for (const name of granted) await expectAuthorized(ctx, name, 1, [], call, 'later in the same session');
    const early = granted[0];
    if (early) ctx.atEnd(() => expectAuthorized(ctx, early, 1, [], call, 'at the end of the run, after every other check'));
  },
});

/** Names in the oversized read: more than a server that limits fetches (§10.3) takes at once. */
const OVERSIZED_READ = 100;

/** A read that got a result (any payload), not a JSON-RPC error or silence. */
function readSucceeded(ex: Exchange): boolean {
  return ex.response !== undefined && 'result' in ex.response && !('error' in ex.response);
}

async function expectAuthorized(ctx: Ctx, name: string, times: number, context: Exchange[], call: (name: string) => Promise<Exchange>, when: string): Promise<void> {
  for (let n = 1; n <= times; n++) {
    const ex = await call(name);
    const outcome = classifyCall(ex);
    if (outcome.kind === 'authorized') continue;
    const extras = { location: { tool: name }, transcript: [...context, ex] };
    if (outcome.kind === 'refused') ctx.fail('grant-not-kept', { tool: name, when, code: outcome.signal.code, call: n, of: times }, extras);
    else ctx.fail('call-no-response', { tool: name, when, note: outcome.note, call: n, of: times }, extras);
    return;
  }
}
