// The other sessions at a call (DESIGN, "The model"): live ones that may have held its tool, ended
// ones that had, and the sessions an earlier run left behind (the other protocol era's) — who else
// could explain a call that ran, and who proves isolation beside a refusal.
import { classifyCall } from '../protocol/calls.js';
import { timesOf } from '../transport/exchange-times.js';
import type { McpSession } from '../transport/session.js';
import type { Exchange } from '../transport/types.js';
import type { PastStep, RanCall } from './attribution.js';
import type { Observed } from './proofs.js';
import type { SessionViews } from './session-views.js';
import type { Step } from './timeline.js';

/** A session that ended (or was judged) with the grants it held, each with the read that first gave it. */
export interface EndedSession {
  session: McpSession;
  grants: ReadonlyMap<string, Exchange | undefined>;
}

/**
 * The other sessions at a call: live ones that held its tool, ended ones that had, and the sessions
 * an earlier run left behind (the other protocol era's).
 */
export class OtherSessions {
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
