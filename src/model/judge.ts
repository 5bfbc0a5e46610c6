import { classifyCall } from '../protocol/calls.js';
import type { McpSession } from '../transport/session.js';
import { timesOf } from '../transport/exchange-times.js';
import type { Exchange } from '../transport/types.js';
import { attribute, evidenceOf, lostGrant, type PastStep, type RanCall } from './attribution.js';
import { judgeCall } from './call.js';
import { mixedUp, type LostGrant } from './lost-grants.js';
import { analyzeMissingRead } from './missing-selection.js';
import { presenceBreaks, type Presence } from './presence.js';
import { proofsOf, type Observed, type ProofOf } from './proofs.js';
import { analyzeRead } from './read.js';
import { SessionViews } from './session-views.js';
import { ALL_EXCHANGES, overlapsOthers, stepsOf, type Scope, type Step } from './timeline.js';
import { CRITERION, SESSION_LIFECYCLE, type RuleBreak, type World } from './world.js';

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

/** A session that ended (or was judged) with the grants it held, each with the read that first gave it. */
export interface EndedSession {
  session: McpSession;
  grants: ReadonlyMap<string, Exchange | undefined>;
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
      if (page !== undefined && tools !== undefined && JSON.stringify(tools) !== page) {
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

/**
 * What a session did before a call, as far as it bears on the call: every read that may have come
 * before it (sent before it was answered: a candidate for what let it through), and every call
 * answered before it was sent, in the order they were sent. A read is one object in every history
 * (attribution knows a read that already explained a call by it).
 */
function historyOf(
  step: Step,
  all: readonly Step[],
  views: SessionViews,
  seen: Map<Exchange, PastStep | null>,
): PastStep[] {
  const history: PastStep[] = [];
  for (const s of all) {
    if (s === step || s.session !== step.session) continue;
    if ((s.op.kind === 'read' || s.op.kind === 'read-missing') && s.sent < step.done) {
      const read = seen.get(s.ex) ?? pastRead(s, views);
      seen.set(s.ex, read);
      if (read) history.push(read);
    } else if (s.op.kind === 'call' && s.done < step.sent && classifyCall(s.ex).kind !== 'no-response') {
      history.push({ kind: 'call', tool: s.op.tool, refused: classifyCall(s.ex).kind === 'refused' });
    }
  }
  return history;
}

/** A read as a call's history holds it (null: no answer came, so it is no read that could have let a call through). */
function pastRead(s: Step, views: SessionViews): PastStep | null {
  if (s.op.kind === 'read-missing') {
    return analyzeMissingRead(views.world, s.op.uri, s.ex).inconclusive
      ? null
      : { kind: 'read', read: { items: [], refused: false, returned: new Set(), ex: s.ex } };
  }
  if (s.op.kind !== 'read') return null;
  const analysis = analyzeRead(views.world, s.op.items, s.ex);
  if (analysis.inconclusive) return null;
  return {
    kind: 'read',
    read: {
      items: s.op.items,
      refused: analysis.refused,
      returned: analysis.refused ? new Set() : analysis.returned,
      ex: s.ex,
    },
  };
}

/**
 * The other sessions at a call: live ones that held its tool, ended ones that had, and the sessions
 * an earlier run left behind (the other protocol era's).
 */
class OtherSessions {
  private readonly prior: ReadonlySet<McpSession>;

  constructor(
    private readonly sessions: readonly McpSession[],
    private readonly all: readonly Step[],
    private readonly views: SessionViews,
    private readonly priorEnded: readonly EndedSession[],
  ) {
    this.prior = new Set(priorEnded.map((e) => e.session));
  }

  /** A call that ran unfetched, with the sessions that may have held its tool then (live, and ended). */
  ranCall(step: Step, how: RanCall['how'], history: PastStep[]): Omit<RanCall, 'beforeAnyRead'> {
    const tool = (step.op as { tool: string }).tool;
    const holders = this.live(step)
      .filter((s) => this.views.holds(s, tool, step.done, 'possibly'))
      .map((session) => ({ session, fetch: this.views.fetchOf(session, tool, step.done, 'possibly') }));
    const heldBy = (list: readonly EndedSession[]) =>
      list
        .filter((e) => e.session !== step.session && e.grants.has(tool))
        .sort((a, b) => byLabel(a.session, b.session))
        .map((e) => ({ session: e.session, fetch: e.grants.get(tool) }));
    // An earlier run's sessions (the other era's) explain a grant only where this run's do not, and
    // only one whose read was sent before this step was answered (the eras' runs overlap).
    const ownEnded = heldBy(this.ended(step));
    const endedHolders =
      holders.length || ownEnded.length ? ownEnded : heldBy(this.priorEnded).filter((h) => heldAt(h.fetch, step));
    return {
      session: step.session,
      tool,
      ex: step.ex,
      how,
      history,
      holders,
      endedHolders,
      newHolder: this.newHolder(step, tool, holders),
      refusalsHoldHere: this.refusalsHold(step.session),
    };
  }

  /** Whether `session` was refused a tool again after a refusal of it, with nothing read in between. */
  private refusalsHold(session: McpSession): boolean {
    const refusedBefore = new Set<string>();
    for (const s of this.all) {
      if (s.session !== session) continue;
      if (s.op.kind === 'read' || s.op.kind === 'read-missing') refusedBefore.clear();
      else if (s.op.kind === 'call' && classifyCall(s.ex).kind === 'refused') {
        if (refusedBefore.has(s.op.tool)) return true;
        refusedBefore.add(s.op.tool);
      }
    }
    return false;
  }

  /**
   * Whether one of `holders` did not surely hold the tool when the session's last refusal of it before `step` was
   * answered.
   */
  private newHolder(step: Step, tool: string, holders: ReadonlyArray<{ session: McpSession }>): boolean {
    const refusals = this.all.filter(
      (s) =>
        s.session === step.session &&
        s.done < step.sent &&
        s.op.kind === 'call' &&
        s.op.tool === tool &&
        classifyCall(s.ex).kind === 'refused',
    );
    const last = refusals[refusals.length - 1];
    if (!last) return false;
    return holders.some((h) => !this.views.holds(h.session, tool, last.sent, 'surely'));
  }

  /**
   * A refusal of an unfetched call, with a session that surely held the tool all through it, and an ended one that held
   * it before this session started.
   */
  seenRefusal(step: Step, tool: string): Observed['refusals'][number] {
    // Of several, the first by name: the same one in every run, whatever the timing.
    const holder = this.live(step).find(
      (s) => (s.endedAt === undefined || s.endedAt > step.done) && this.views.holds(s, tool, step.sent, 'surely'),
    );
    // Only this run's own sessions prove isolation: the other era's run overlaps this one, so which
    // of its sessions had ended by then is a matter of timing, and a proof must be the same with the same seed.
    const endedHolder = this.ended(step).find(
      (e) => e.grants.has(tool) && (e.session.endedAt ?? Infinity) <= step.session.startedAt,
    );
    return {
      session: step.session,
      tool,
      ex: step.ex,
      ...(holder ? { heldBy: { session: holder, fetch: this.views.fetchOf(holder, tool, step.sent, 'surely') } } : {}),
      ...(endedHolder ? { endedHolder: { session: endedHolder.session, fetch: endedHolder.grants.get(tool) } } : {}),
    };
  }

  /** This run's other sessions not ended when the step was sent, by name. */
  private live(step: Step): McpSession[] {
    return this.sessions
      .filter((s) => s !== step.session && !this.prior.has(s) && !(s.endedAt !== undefined && s.endedAt <= step.sent))
      .sort(byLabel);
  }

  /** This run's other sessions ended by the time the step was sent, with every grant each held, by name. */
  private ended(step: Step): EndedSession[] {
    return this.sessions
      .filter((s) => s !== step.session && !this.prior.has(s) && s.endedAt !== undefined && s.endedAt <= step.sent)
      .sort(byLabel)
      .map((session) => ({ session, grants: this.views.held(session) }));
  }
}

/**
 * Whether a grant of the other era's run, given by `fetch`, could have been held at `step`: its
 * read was sent before the step was answered (some serial order puts the read first). A grant
 * whose read is not known counts.
 */
function heldAt(fetch: Exchange | undefined, step: Step): boolean {
  const sent = fetch ? timesOf(fetch)?.sent : undefined;
  return sent === undefined || sent < step.done;
}

/** Sessions by name (the same order in every run). */
function byLabel(a: McpSession, b: McpSession): number {
  return a.label < b.label ? -1 : a.label > b.label ? 1 : 0;
}
