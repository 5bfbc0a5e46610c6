import { defineLiveCheck } from '../src/check.js';
import type { LiveContext } from '../src/context.js';
import { classifyCall } from '../src/pd/calls.js';
import { fetchDescriptions, isDescriptionEntry } from '../src/pd/fetch.js';
import type { Exchange } from '../src/target/types.js';

/** How often an authorized tool is called in a row ("authorization persists"). */
const REPEAT_CALLS = 2;

const messages = {
  'failed-fetch-authorized': {
    message: "This session had made only failed or unknown-name fetches, yet calling '{tool}' was not refused: those fetches must authorize nothing, and no grant may come from another session (§5.1).",
    hint: 'Grant a tool only when its description was returned, per session; if pd-session-isolation fails too, grants are shared between sessions.',
  },
  'fetch-no-description': { message: 'Fetching ?tools={tool} did not return its description ({problem}), so authorization could not be tested for it.', hint: 'Make ?tools=<name> return the description (criterion 3).' },
  'grant-not-kept': {
    message: "Calling '{tool}' {when} was refused with {code} (call {call} of {of}): authorization must last for the whole session (§5.1).",
    hint: 'Keep the grant for the session: do not consume it on first use or expire it early.',
  },
  'call-no-response': { message: "Calling '{tool}' {when} got no response ({note}) (call {call} of {of}).", hint: 'Answer every tools/call within the timeout.' },
  'unfetched-not-called': "'{tool}' was not called unfetched: {why}.",
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
  opens: 1,
  messages,
  async run(ctx) {
    const base = ctx.resourceUriOrSkip('authorization');
    // Read-only tools first: unfetched calls below go to them before any other.
    const tools = ctx.calls.order(ctx.toolsToCallOrStop());
    const session = await ctx.session();
    const call = (name: string) => session.callTool(name, ctx.calls.arguments(name));
    /** A call to a tool this session has not fetched: only where the ledger allows it. */
    const callUnfetched = async (name: string): Promise<Exchange | undefined> => {
      const why = ctx.calls.unfetchedRefusal(name);
      if (why) {
        ctx.info('unfetched-not-called', { tool: name, why }, { location: { tool: name } });
        ctx.calls.skip(name, why);
        return undefined;
      }
      const ex = await call(name);
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

    // 2. Fetch the tools one by one: each fetch authorizes that tool, persistently, and no other.
    for (const [i, name] of tools.entries()) {
      const fetched = await fetchDescriptions(session, base, [name]);
      if (!fetched.entries || !isDescriptionEntry(fetched.entries[name])) {
        ctx.fail('fetch-no-description', { tool: name, problem: fetched.problem ?? 'no entry under its name' }, { location: { tool: name }, transcript: [fetched.exchange] });
        continue;
      }
      await expectAuthorized(ctx, name, REPEAT_CALLS, [fetched.exchange], call, 'right after fetching it');
      const next = tools[i + 1];
      if (next) {
        const ex = await callUnfetched(next);
        if (ex && classifyCall(ex).kind === 'authorized') {
          ctx.fail('fetch-authorized-other', { tool: next, fetched: tools.slice(0, i + 1) }, { location: { tool: next }, transcript: [fetched.exchange, ex] });
        }
      }
    }

    // 3. Later in the session, every earlier grant still holds.
    for (const name of tools) await expectAuthorized(ctx, name, 1, [], call, 'later in the same session');
  },
});

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
