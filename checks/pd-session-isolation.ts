import { defineLiveCheck } from '../src/check.js';
import { classifyCall } from '../src/pd/calls.js';
import { fetchDescriptions } from '../src/pd/fetch.js';
import type { McpSession } from '../src/target/session.js';
import type { Exchange } from '../src/target/types.js';

/** Past this many findings the rest are summarised (N sessions × M tools can be large). */
const MAX_FINDINGS = 20;

interface Plan {
  session: McpSession;
  /** The tool this session fetches; session 0 fetches nothing and serves as the control. */
  fetches?: string;
  fetchExchange?: Exchange;
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
  'tested': '{sessions} parallel sessions, {tools|tool} each, then a new session after all had ended (half with DELETE over HTTP).',
  'unfetched-not-called': 'Not called by sessions that had not fetched them: {tools} ({why}).',
} as const;

export default defineLiveCheck({
  id: 'pd-session-isolation',
  title: 'Parallel sessions are each authorized for exactly what they fetched; a new session starts with nothing',
  spec: {
    doc: 'progressive-disclosure', section: '5.1', level: 'MUST', criterion: 8,
    requirements: ['PD-5.1-e', 'PD-5.2-a', 'PD-5.2-b', 'PD-5.2-c'],
  },
  needs: 'sessions',
  opens: (o) => Math.max(2, o.sessions),
  messages,
  async run(ctx) {
    const base = await ctx.resourceUriOrSkip('session isolation');
    const tools = ctx.toolsToCallOrStop();
    const { fail, done } = ctx.capped(MAX_FINDINGS);
    const n = Math.max(2, ctx.options.sessions);

    // Phase 1: n sessions; all but the control fetch one tool each, all at the same time.
    const plans: Plan[] = (await ctx.sessions(n)).map((session, k) => ({ session, fetches: k === 0 ? undefined : tools[(k - 1) % tools.length] }));
    await Promise.all(plans.map(async (plan) => {
      if (plan.fetches) plan.fetchExchange = (await fetchDescriptions(plan.session, base, [plan.fetches])).exchange;
    }));

    // Phase 2: every session calls every tool, all at once — a tool it did not fetch only where
    // unfetched calls do no harm (see CallLedger), decided before the calls start.
    const refused = new Map(tools.map((tool) => [tool, ctx.calls.unfetchedRefusal(tool)]));
    const held = tools.filter((tool) => refused.get(tool));
    if (held.length) {
      ctx.info('unfetched-not-called', { tools: held, why: refused.get(held[0]!) });
      for (const tool of held) ctx.calls.skip(tool, refused.get(tool)!);
    }
    await ctx.fullDescriptions();
    const calls = await Promise.all(plans.flatMap((plan) => tools.filter((tool) => tool === plan.fetches || !refused.get(tool)).map(async (tool) => {
      const ex = await plan.session.callTool(tool, tool === plan.fetches ? ctx.calls.arguments(tool) : ctx.calls.unfetchedArguments());
      if (tool !== plan.fetches) ctx.calls.recordUnfetched(tool, ex);
      return { plan, tool, ex };
    })));
    for (const { plan, tool, ex } of calls) {
      const outcome = classifyCall(ex);
      const label = plan.session.label;
      if (outcome.kind === 'no-response') {
        fail('no-response', { session: label, tool, note: outcome.note, sessions: n }, { location: { tool }, transcript: [ex] });
      } else if (tool === plan.fetches && outcome.kind === 'refused') {
        fail('own-grant-refused', { session: label, tool }, { location: { tool }, transcript: [plan.fetchExchange!, ex] });
      } else if (tool !== plan.fetches && outcome.kind === 'authorized') {
        const owners = plans.filter((p) => p.fetches === tool);
        fail('grant-leaked', { session: label, tool, owners: owners.length ? owners.map((p) => p.session.label).join(', ') : 'no session' }, {
          location: { tool }, transcript: [...owners.slice(0, 1).map((p) => p.fetchExchange!), ex],
        });
      }
    }

    // Phase 3: the last session also fetches every tool; all end — half told (HTTP DELETE), half
    // simply dropped, as clients that vanish — and a new session must start bare.
    const last = plans[plans.length - 1]!.session;
    const fetchedAll = await fetchDescriptions(last, base, tools);
    await Promise.all(plans.map((p, k) => p.session.close({ terminate: k % 2 === 1 })));
    const fresh = await ctx.session({ fresh: true });
    for (const tool of tools.filter((t) => !ctx.calls.unfetchedRefusal(t))) {
      const ex = await fresh.callTool(tool, ctx.calls.unfetchedArguments());
      ctx.calls.recordUnfetched(tool, ex);
      if (classifyCall(ex).kind === 'authorized') fail('grant-inherited', { session: last.label, tool }, { location: { tool }, transcript: [fetchedAll.exchange, ex] });
    }
    done();
    ctx.info('tested', { sessions: n, tools: tools.length });
  },
});
