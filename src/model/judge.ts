import { classifyCall } from '../protocol/calls.js';
import type { McpSession } from '../transport/session.js';
import type { Exchange } from '../transport/types.js';
import { attribute, evidenceOf, lostGrant, type PastStep, type RanCall } from './attribution.js';
import { judgeCall } from './call.js';
import { historyOf } from './call-history.js';
import { mixedUp, type LostGrant } from './lost-grants.js';
import { OtherSessions, type EndedSession } from './other-sessions.js';

export type { EndedSession };
import { analyzeMissingRead } from './missing-selection.js';
import { presenceBreaks, type Presence } from './presence.js';
import { proofsOf, type Observed, type ProofOf } from './proofs.js';
import { analyzeRead } from './read.js';
import { SessionViews } from './session-views.js';
import { ALL_EXCHANGES, overlapsOthers, stepsOf, type Scope } from './timeline.js';
import { CRITERION, listingKey, SESSION_LIFECYCLE, type RuleBreak, type World } from './world.js';

/** What the model concluded about a run: every broken rule, and what the report says beside them. */
export interface Judgement {
  breaks: RuleBreak[];
  /** Requests that got no answer (a timeout, a closed transport): they prove nothing, and are said as such. */
  inconclusive: Inconclusive[];
  /** How refusals and missing-selection errors were signalled (for the report). */
  refusalForms: Set<string>;
  missingForms: Set<string>;
  /** What the judged sessions leave behind for a later run against the same server. */
  leftBehind: LeftBehind;
  /** Criteria 6, 7 and 8: what proves each, or why nothing does. */
  proofs: ProofOf[];
}

/**
 * What one run's sessions leave behind for a later run against the same server (the next
 * protocol era): each session with the grants it held, as ended (each with the read that first
 * gave it), and the tools the run saw refused. A grant of theirs that a later session can use is inherited (§5.1,
 * §5.2).
 */
export interface LeftBehind {
  ended: readonly EndedSession[];
  refusedTools: ReadonlySet<string>;
}

/** A request that proves nothing about progressive disclosure, by the check whose rule it was to prove. */
export interface Inconclusive {
  check: string;
  /** What was asked, in words ("calling 'x'", "reading ?tools=a"). */
  subject: string;
  tool?: string;
  note: string;
  proof: Exchange[];
}

/**
 * Replays every exchange of the sessions (DESIGN, "The model") and returns the rules they broke,
 * each owned by one criterion. Requests of a session in flight together reached the server in an
 * order nobody saw: a call is judged against what its session surely held when it was sent (reads
 * answered before) where it was refused, and against what it may have held (reads sent before it
 * was answered) where it ran — so no finding rests on one order when another explains the answer,
 * and the judgement is the same whichever order the answers came in.
 */
export function judge(
  world: World,
  sessions: readonly McpSession[],
  scope: Scope = ALL_EXCHANGES,
  prior?: LeftBehind,
): Judgement {
  const own = [...new Set(sessions)];
  const all = stepsOf(own, scope, world.descriptionsTool);
  const views = new SessionViews(world, all);
  const priorEnded = prior?.ended ?? [];
  const out: Judgement = {
    breaks: [],
    inconclusive: [],
    refusalForms: new Set(),
    missingForms: new Set(),
    leftBehind: { ended: [], refusedTools: new Set() },
    proofs: [],
  };
  const observed: Observed = { refusals: [], granted: [] };
  const inconclusive = (check: string, subject: string, ex: Exchange, tool?: string) =>
    out.inconclusive.push({
      check,
      subject,
      ...(tool !== undefined ? { tool } : {}),
      note: ex.note ?? ex.noResponse ?? 'no response',
      proof: [ex],
    });
  const ran: RanCall[] = [];
  // When the first read of descriptions was sent, in any session (an earlier era's sessions read before this run
  // began).
  const firstRead = priorEnded.some((e) => e.grants.size > 0)
    ? Number.NEGATIVE_INFINITY
    : Math.min(
        ...all.filter((s) => s.op.kind === 'read' || s.op.kind === 'read-missing').map((s) => s.sent),
        Number.POSITIVE_INFINITY,
      );
  const lost: LostGrant[] = [];
  const refusedTools = new Set<string>(prior?.refusedTools ?? []);
  const presence = new Map<string, Presence[]>();
  const others = new OtherSessions(own, all, views, priorEnded);
  const pastReads = new Map<Exchange, PastStep | null>();

  for (const step of all) {
    const { op, ex, session } = step;
    if (op.kind === 'list') {
      const page = world.listing.get(op.cursor ?? '');
      const tools = (ex.response?.result as { tools?: unknown } | undefined)?.tools;
      if (page !== undefined && tools !== undefined && listingKey(tools) !== page) {
        out.breaks.push({
          check: CRITERION.listing,
          code: 'listing-changed',
          args: { granted: [...views.surely(session, step.sent)] },
          level: 'fail',
          proof: [ex],
        });
      }
    } else if (op.kind === 'after-end') {
      // MCP transports: a request under a terminated session's id is answered 404.
      if (op.status !== 404 && op.status !== undefined)
        out.breaks.push({
          check: SESSION_LIFECYCLE,
          code: 'ended-session-answered',
          args: { session: session.label, status: op.status },
          level: 'fail',
          proof: [ex],
        });
    } else if (op.kind === 'read') {
      const analysis = analyzeRead(world, op.items, ex);
      // No answer: nothing is judged (what it named is left open: SessionViews).
      if (analysis.inconclusive) inconclusive(CRITERION.names, `reading ?tools=${op.items.join(',')}`, ex);
      // A read through the tool form is judged against the resource's answer by pd-descriptions-tool, not here.
      else if (ex.method !== 'tools/call') {
        out.breaks.push(...analysis.breaks);
        for (const [tool, where] of analysis.presence)
          (presence.get(tool) ?? presence.set(tool, []).get(tool)!).push({
            presence: where,
            items: [...new Set(op.items)],
            unknown: analysis.unknown,
            ex,
          });
      }
    } else if (op.kind === 'read-missing') {
      const analysis = analyzeMissingRead(world, op.uri, ex);
      if (analysis.inconclusive) inconclusive(CRITERION.missing, `reading ${op.uri}`, ex);
      else if (ex.method !== 'tools/call') {
        out.breaks.push(...analysis.breaks);
        if (analysis.form) out.missingForms.add(analysis.form);
      }
    } else {
      const tool = op.tool;
      const outcome = classifyCall(ex);
      // A call that ran is judged by what its session may have held; a refused one by what it surely held.
      const granted = views.holds(
        session,
        tool,
        outcome.kind === 'authorized' ? step.done : step.sent,
        outcome.kind === 'authorized' ? 'possibly' : 'surely',
      );
      const model = {
        grants: new Set(granted ? [tool] : []),
        open: new Set(!granted && views.isOpen(step, tool) ? [tool] : []),
      };
      const verdict = judgeCall(world, model, tool, op.args, ex);
      if (verdict.kind === 'grant-lost') {
        const workedBefore = all.some(
          (s) =>
            s.session === session &&
            s.done < step.sent &&
            s.op.kind === 'call' &&
            s.op.tool === tool &&
            classifyCall(s.ex).kind === 'authorized',
        );
        lost.push({
          step,
          code: verdict.code,
          fetch: views.fetchOf(session, tool, step.sent, 'surely'),
          concurrent: overlapsOthers(step, all),
          workedBefore,
        });
      } else if (verdict.kind === 'ran') {
        ran.push({
          ...others.ranCall(step, verdict.how, historyOf(step, all, views, pastReads)),
          beforeAnyRead: step.done < firstRead,
        });
      } else if (verdict.kind === 'as-expected') {
        out.breaks.push(...verdict.breaks);
        if (verdict.form) {
          out.refusalForms.add(verdict.form);
          refusedTools.add(tool);
          // A proof of refusals is a call no order could have let through: no read of the tool was sent before it was
          // answered.
          if (!views.holds(session, tool, step.done, 'possibly'))
            observed.refusals.push(others.seenRefusal(step, tool));
        } else if (world.toolSet.has(tool) && granted) {
          // A proof of a grant is a call sent after its read was answered (an order the run made).
          const fetch = views.fetchOf(session, tool, step.sent, 'surely');
          if (fetch) observed.granted.push({ session, tool, ex, fetch });
        }
      } else if (verdict.kind === 'no-response') {
        // A slow tool, one that waits on the network, a server that went away: it proves nothing.
        inconclusive(
          verdict.granted ? CRITERION.grants : CRITERION.refusal,
          `calling '${tool}'${verdict.granted ? '' : ' unfetched'}`,
          ex,
          tool,
        );
      }
    }
  }
  // A refusal in any form shows the server enforces that tool (classifyCall counts every form).
  const refusals = new Map<string, Array<{ session: McpSession; ex: Exchange }>>();
  for (const step of all) {
    if (step.op.kind !== 'call' || classifyCall(step.ex).kind !== 'refused') continue;
    refusedTools.add(step.op.tool);
    (refusals.get(step.op.tool) ?? refusals.set(step.op.tool, []).get(step.op.tool)!).push({
      session: step.session,
      ex: step.ex,
    });
  }
  const evidence = evidenceOf(ran, refusedTools, refusals);
  const proven: Parameters<typeof attribute>[2] = new Map();
  for (const call of ran) out.breaks.push(attribute(call, evidence, proven));
  for (const l of lost)
    out.breaks.push(
      lostGrant(l.step.session, (l.step.op as { tool: string }).tool, l.code, l.step.ex, l.fetch, mixedUp(l, all)),
    );
  out.breaks.push(...presenceBreaks(presence));
  // A grant the resource's reads break too is the grant store's (criterion 6), not the tool form's:
  // one defect, one red criterion.
  if (out.breaks.some((b) => b.check === CRITERION.grants && b.level === 'fail'))
    out.breaks = out.breaks.filter((b) => b.check !== CRITERION.toolForm);
  out.proofs = proofsOf(observed);
  out.leftBehind = {
    ended: [...priorEnded, ...own.map((session) => ({ session, grants: views.held(session) }))],
    refusedTools,
  };
  return out;
}
