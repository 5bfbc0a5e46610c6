import { defineLiveCheck } from '../src/check.js';
import { classifyCall } from '../src/pd/calls.js';
import { entryFor, fetchDescriptions } from '../src/pd/fetch.js';
import { isPlainObject } from '../src/pd/payload.js';
import type { McpSession } from '../src/target/session.js';
import type { Exchange, JsonObject } from '../src/target/types.js';

/** Past this many findings the rest are summarised (N sessions × M tools can be large). */
const MAX_FINDINGS = 20;
/** Tools every session calls, at most: N sessions × 10,000 tools would be a flood, not a test. */
const SAMPLE = 100;

interface Plan {
  session: McpSession;
  /** The tools this session fetched; none for the control. */
  fetched: string[];
  /** The exchange that proves what it fetched. */
  fetchExchange?: Exchange;
  /** Opened here (and so ended here), or shared with the run (the probe, criterion 6's session). */
  own: boolean;
  /** Fetched entries, whose examples are the arguments of this session's authorized calls. */
  entries: Map<string, JsonObject>;
  /**
   * Whether this session calls tools here. Criterion 6's session only holds its grants (for the
   * others not to see): whether they last is criterion 6's own finding, not this one's.
   */
  calls: boolean;
}

const messages = {
  'no-response': { message: "Session {session}: calling '{tool}' got no response ({note}) while {sessions} sessions were active.", hint: 'Serve concurrent sessions independently; never block one session on another.' },
  'own-grant-refused': {
    message: "Session {session} fetched '{tool}', yet calling it was refused while other sessions were active: authorization is not kept per session (§5.1).",
    hint: 'Key grants by the MCP session, not by a shared "current session" variable.',
  },
  'grant-leaked': {
    message: "Session {session} never fetched '{tool}' but could call it; {owners} fetched it: authorization leaks between sessions (§5.1.4).",
    hint: 'Store grants per MCP session (per process over stdio, per Mcp-Session-Id over HTTP), never globally.',
  },
  'grant-inherited': {
    message: "A session opened after {session} had fetched '{tool}' and ended could call '{tool}' without fetching it: a new session must not inherit grants (§5.1, §5.2).",
    hint: 'Drop or key grants by session; never persist them beyond the session that made them.',
  },
  'tested': '{sessions} parallel sessions (one that fetched nothing, others that fetched one tool or all), {tools|tool} each, then a new session after the ones opened here had ended (half with DELETE over HTTP).',
  'unfetched-not-called': 'Not called by sessions that had not fetched them: {tools} ({why}).',
  'sampled': 'Every session called the first {tested} of {total} tools.',
} as const;

export default defineLiveCheck({
  id: 'pd-session-isolation',
  title: 'Parallel sessions are each authorized for exactly what they fetched; a new session starts with nothing',
  spec: {
    doc: 'progressive-disclosure', section: '5.1', level: 'MUST', criterion: 8,
    requirements: ['PD-5.1-e', 'PD-5.2-a', 'PD-5.2-b', 'PD-5.2-c'],
  },
  needs: 'sessions',
  // Before the probe fetches anything, so that the probe can be the control session.
  runs: 'before-other-fetches',
  // The probe and criterion 6's session (when it runs) are reused; the rest are new.
  opens: (o) => Math.max(0, o.sessions - (o.selected.includes('pd-authorization-enforced') ? 2 : 1)),
  fresh: 1,
  reuses: 'pd-authorization-enforced',
  sessionUse: (o) => {
    const borrowed = o.selected.includes('pd-authorization-enforced');
    const singles = o.sessions - (borrowed ? 2 : 1);
    return `${o.sessions} sessions calling at once: the probe (nothing fetched in it yet), ${borrowed ? "criterion 6's session (holds its grants), " : ''}`
      + `${singles} new one${singles === 1 ? ' that fetches' : 's that fetch'} one tool each; ${singles === 1 ? 'it ends' : 'they end (half with DELETE over HTTP)'}, `
      + 'then one started after must have no grant (its calls come at the end of the run)';
  },
  messages,
  async run(ctx) {
    const base = await ctx.resourceUriOrSkip('session isolation');
    const all = ctx.calls.order(ctx.toolsToCallOrStop());
    const tools = all.slice(0, SAMPLE);
    if (all.length > SAMPLE) ctx.info('sampled', { tested: SAMPLE, total: all.length });
    const { fail, done } = ctx.capped(MAX_FINDINGS);
    const n = Math.max(2, ctx.options.sessions);

    // The sessions (see the session plan in docs/DESIGN.md): a control that fetched nothing (the
    // probe, while nothing was fetched in it), criterion 6's session that fetched every tool, and
    // new sessions that each fetch one tool — all at the same time.
    const plans: Plan[] = [];
    const probe = ctx.reader();
    plans.push(ctx.run.readerFetched ? { session: await ctx.session(), fetched: [], own: true, entries: new Map(), calls: true } : { session: probe, fetched: [], own: false, entries: new Map(), calls: true });
    const authorized = ctx.run.authorizedSession;
    if (authorized && !authorized.session.closed) plans.push({ session: authorized.session, fetched: [...authorized.granted], own: false, entries: authorized.entries, calls: false });
    const fresh = await ctx.sessions(Math.max(0, n - plans.length));
    fresh.forEach((session, k) => plans.push({ session, fetched: [tools[k % tools.length]!], own: true, entries: new Map(), calls: true }));
    await Promise.all(plans.filter((p) => p.own && p.fetched.length).map(async (plan) => {
      const got = await fetchDescriptions(plan.session, base, plan.fetched);
      plan.fetchExchange = got.exchange;
      const entry = entryFor(got.entries, plan.fetched[0]!);
      if (isPlainObject(entry)) plan.entries.set(plan.fetched[0]!, entry);
    }));
    if (authorized) plans.find((p) => p.session === authorized.session)!.fetchExchange = authorized.lastFetch;

    // Phase 2: every session calls every tool, all at once — a tool it did not fetch only where
    // unfetched calls do no harm (see CallLedger), decided before the calls start.
    const refused = new Map(tools.map((tool) => [tool, ctx.calls.unfetchedRefusal(tool)]));
    const held = tools.filter((tool) => refused.get(tool));
    if (held.length) {
      ctx.info('unfetched-not-called', { tools: held, why: refused.get(held[0]!) });
      for (const tool of held) ctx.calls.skip(tool, refused.get(tool)!);
    }
    const calls = await Promise.all(plans.filter((p) => p.calls).flatMap((plan) => tools.filter((tool) => plan.fetched.includes(tool) || !refused.get(tool)).map(async (tool) => {
      const own = plan.fetched.includes(tool);
      const ex = await plan.session.callTool(tool, own ? ctx.calls.arguments(tool, plan.entries.get(tool)) : ctx.calls.unfetchedArguments());
      if (!own) ctx.calls.recordUnfetched(tool, ex);
      return { plan, tool, own, ex };
    })));
    for (const { plan, tool, own, ex } of calls) {
      const outcome = classifyCall(ex);
      const label = plan.session.label;
      if (outcome.kind === 'no-response') {
        fail('no-response', { session: label, tool, note: outcome.note, sessions: plans.length }, { location: { tool }, transcript: [ex] });
      } else if (own && outcome.kind === 'refused') {
        fail('own-grant-refused', { session: label, tool }, { location: { tool }, transcript: [...(plan.fetchExchange ? [plan.fetchExchange] : []), ex] });
      } else if (!own && outcome.kind === 'authorized') {
        const owners = plans.filter((p) => p.fetched.includes(tool));
        fail('grant-leaked', { session: label, tool, owners: owners.length ? owners.map((p) => p.session.label).join(', ') : 'no session' }, {
          location: { tool }, transcript: [...owners.slice(0, 1).flatMap((p) => (p.fetchExchange ? [p.fetchExchange] : [])), ex],
        });
      }
    }

    // Phase 3: the sessions opened here end — half told (HTTP DELETE), half simply dropped, as
    // clients that vanish — and a session opened after them must start bare.
    const ended = plans.filter((p) => p.own && p.fetched.length);
    await Promise.all(plans.filter((p) => p.own).map((p, k) => p.session.close({ terminate: k % 2 === 1 })));
    // The new session starts now, after them; its calls wait for the end of the run (as criterion
    // 6's last call does), so that its start — a new server process over stdio — overlaps the
    // checks in between instead of delaying them.
    const opening = ctx.session({ fresh: true });
    opening.catch(() => {}); // its failure is reported where it is awaited
    ctx.atEnd(async () => {
      const after = await opening;
      const endedGrants = new Map(ended.flatMap((p) => p.fetched.map((t) => [t, p] as const)));
      for (const tool of tools.filter((t) => !ctx.calls.unfetchedRefusal(t))) {
        const ex = await after.callTool(tool, ctx.calls.unfetchedArguments());
        ctx.calls.recordUnfetched(tool, ex);
        if (classifyCall(ex).kind !== 'authorized') continue;
        const owner = endedGrants.get(tool);
        if (owner) fail('grant-inherited', { session: owner.session.label, tool }, { location: { tool }, transcript: [...(owner.fetchExchange ? [owner.fetchExchange] : []), ex] });
        else fail('grant-leaked', { session: after.label, tool, owners: plans.filter((p) => p.fetched.includes(tool)).map((p) => p.session.label).join(', ') || 'no session' }, { location: { tool }, transcript: [ex] });
      }
      done();
      ctx.info('tested', { sessions: plans.length, tools: tools.length });
    });
  },
});
