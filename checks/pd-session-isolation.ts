import { defineLiveCheck } from '../src/run/check.js';
import { MODEL_MESSAGES } from '../src/model/rules.js';
import { entryFor, fetchDescriptions, isDescriptionEntry } from '../src/protocol/fetch.js';
import { classifyCall } from '../src/protocol/calls.js';
import type { McpSession } from '../src/transport/session.js';
import type { Exchange, JsonObject } from '../src/transport/types.js';

/** Tools every session calls, at most: N sessions × 10,000 tools would be a flood, not a test. */
const SAMPLE = 100;

/** What the model expects across sessions (src/model/ judges every exchange of the run). */
const messages = {
  ...MODEL_MESSAGES['pd-session-isolation'],
  tested:
    '{sessions} parallel sessions (one that fetched nothing, the probe that fetched every tool, others that fetched one tool each), {tools|tool} each, then a new session after the ones opened here had ended (half with DELETE over HTTP).',
  'tested-shared':
    "The probe (it fetched every tool) and the run's clean session (nothing fetched) called {tools|tool} at once; then the clean session fetched one tool, called it and ended, and the next session started called {tools|tool} (over stdio the checks share their sessions: --sessions 4 or more opens sessions of its own).",
  sampled: 'Every session called the first {tested} of {total} tools.',
  'one-connection':
    "The run's clean session sent its requests on {session}'s connection (one keep-alive socket for both, as a client's pooled HTTP agent sends two sessions' requests): a server that keeps grants by connection would have let it call {tool}.",
} as const;

export default defineLiveCheck({
  id: 'pd-session-isolation',
  title: 'Parallel sessions are each authorized for exactly what they fetched; a new session starts with nothing',
  spec: {
    doc: 'progressive-disclosure',
    section: '5.1',
    level: 'MUST',
    criterion: 8,
    requirements: ['PD-5.1-e', 'PD-5.2-a', 'PD-5.2-b', 'PD-5.2-c'],
  },
  needs: 'sessions',
  reads: ['unfetched-calls', 'descriptions'],
  opens: (o) => fetchers(o.sessions),
  fresh: 1,
  turn: 1,
  clean: true,
  sessionUse: (o) => {
    if (o.shared)
      return "calls at once from the probe (which fetched every tool) and the run's clean session (nothing fetched); then the clean session fetches one tool, calls it and ends, and the shared session P, started after it ended, must have no grant";
    const n = fetchers(o.sessions);
    return (
      `calls at once from the probe (which fetched every tool), the run's clean session (nothing fetched; over Streamable HTTP on the first new session's connection, one keep-alive socket for both) and ${n} new session${n === 1 ? ' that fetches' : 's that fetch'} one tool each; ` +
      `${n === 1 ? 'it ends' : 'they end (half with DELETE over HTTP)'}, then one started after must have no grant (its calls come at the end of the run)`
    );
  },
  messages,
  async run(ctx) {
    const base = ctx.resourceUriOrSkip('session isolation');
    const all = ctx.toolsToCallOrStop();
    const tools = all.slice(0, SAMPLE);
    if (all.length > SAMPLE) ctx.info('sampled', { tested: SAMPLE, total: all.length });

    // Sharing sessions (over stdio: each is a process), no session of its own fetches one tool
    // beside the others: the clean session does once the calls at once are done, and it ends.
    const shared = ctx.sharesSession;
    const [clean, ...singles] = await Promise.all([
      ctx.cleanSession(),
      ...Array.from({ length: shared ? 0 : fetchers(ctx.options.sessions) }, () => ctx.session()),
    ]);
    // The probe holds every grant: the run fetched the full descriptions in it.
    const full = ctx.facts.descriptions.full;
    const entries = new Map<McpSession, Map<string, JsonObject>>();
    // Each fetcher's own tool is one that answers (a tool that gave no answer is called no more, so
    // it could show nothing: neither its grant working, nor a later session refused it).
    const answering = tools.filter((t) => !ctx.gaveNoAnswer(t));
    const own = (k: number) => (answering.length ? answering : tools)[k % (answering.length || tools.length)];
    /** The session fetches its own tool, and keeps the entry for its calls' arguments. */
    const fetchOwn = async (session: McpSession, k: number) => {
      const tool = own(k);
      const got = await fetchDescriptions(session, base, [tool]);
      const entry = entryFor(got.entries, tool);
      entries.set(session, new Map(isDescriptionEntry(entry) ? [[tool, entry]] : []));
    };
    // Over Streamable HTTP, from here the clean session's requests go on the first new session's
    // connection: one keep-alive socket for two sessions, as a client's pooled agent sends them (Node's
    // fetch keeps one pool per origin). A server that keeps grants by connection hands that
    // session's grant to the clean one, which fetched nothing: its call of that tool in the burst runs.
    const sharing = !shared && singles[0] !== undefined && clean.joinConnectionsOf(singles[0]);
    await Promise.all(singles.map(fetchOwn));
    if (sharing) ctx.info('one-connection', { session: singles[0].label, tool: own(0) });
    const callOwn = (session: McpSession, k: number) =>
      ctx.call(session, own(k), { entry: entries.get(session)?.get(own(k)) });
    // Each its own tool once: the grant works before the sessions crowd in.
    await Promise.all(singles.map(callOwn));

    // Every session calls every tool, all at once (the door decides what may be called where).
    const sessions = [ctx.probe(), clean, ...singles];
    const burst = await Promise.all(
      sessions.map((session) =>
        Promise.all(
          tools.map((tool) => ctx.call(session, tool, { entry: entries.get(session)?.get(tool) ?? full.get(tool) })),
        ),
      ),
    );
    // A session whose own tool was refused in the burst calls it once more, alone: working again
    // now, the refusal was another session's state taken for this one's (the model tells it from
    // a grant that lapsed).
    for (const [k, session] of singles.entries()) {
      const refused = burst[k + 2][tools.indexOf(own(k))];
      if (refused && classifyCall(refused).kind === 'refused') await callOwn(session, k);
    }

    ctx.unprovenIfSilent(
      'every call of its sessions',
      burst.flat().filter((ex): ex is Exchange => ex !== undefined),
    );
    if (shared) {
      await fetchOwn(clean, 0);
      await callOwn(clean, 0);
    }
    const ending = shared ? [clean] : singles;

    // The sessions opened here end — half told (HTTP DELETE), half simply dropped, as clients
    // that vanish — and a session opened after them must start bare: it is the very next session
    // the server sees start (a server that hands an ended session's grants to the next one hands
    // them to it in every run). Its calls wait for the end of the run, so that its start (a server
    // process over stdio) overlaps the checks between.
    const opening = ctx.session({
      after: async () => {
        await Promise.all(ending.map((session, k) => session.close({ terminate: k % 2 === 0 })));
        // Over Streamable HTTP a terminated session's id must be answered 404 from then on (the
        // model judges it, for mcp-session-lifecycle).
        await Promise.all(ending.map((session) => session.requestAfterEnd()));
      },
    });
    opening.catch(() => {}); // its failure is reported where it is awaited
    const callAfter = async () => {
      const after = await opening;
      await Promise.all(tools.map((tool) => ctx.call(after, tool)));
    };
    // The shared session's next checks wait for this one: its calls come now.
    if (shared) {
      await callAfter();
      ctx.info('tested-shared', { tools: tools.length });
      return;
    }
    ctx.atEnd(async () => {
      await callAfter();
      ctx.info('tested', { sessions: sessions.length, tools: tools.length });
    });
  },
});

/**
 * New sessions that each fetch one tool: --sessions counts them with the probe and the clean session (at least one).
 */
function fetchers(sessions: number): number {
  return Math.max(1, sessions - 2);
}
