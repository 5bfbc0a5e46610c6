import type { McpSession } from '../transport/session.js';
import { socketOf } from '../transport/exchange-times.js';
import type { Exchange } from '../transport/types.js';
import { resembled } from './ops.js';
import { CRITERION, type RuleBreak } from './world.js';

/** A read the session made before a call, as the model saw it. */
export interface PastRead {
  items: string[];
  refused: boolean;
  returned: ReadonlySet<string>;
  ex: Exchange;
}

/** What a session did before a call: its reads, and its calls with whether they were refused. */
export type PastStep = { kind: 'read'; read: PastRead } | { kind: 'call'; tool: string; refused: boolean };

/** A call that ran although the model says its session did not hold the grant, with what the run looked like then. */
export interface RanCall {
  session: McpSession;
  tool: string;
  ex: Exchange;
  /** Criterion 7's code for what it got, had nothing else explained it. */
  how: { code: string; args: Record<string, unknown> };
  /** The session's steps before it. */
  history: PastStep[];
  /** Other live sessions holding the tool then, with the read that gave it. */
  holders: Array<{ session: McpSession; fetch?: Exchange }>;
  /** Ended sessions that had held it. */
  endedHolders: Array<{ session: McpSession; fetch?: Exchange }>;
  /**
   * After a refusal of the tool in this session, whether a holder came that did not surely hold it
   * when that refusal was answered: a grant that arrived since may have crossed over (else only a
   * refusal that did not hold explains the call).
   */
  newHolder: boolean;
  /** This session was refused a tool a second time, nothing read in between: its refusals hold. */
  refusalsHoldHere: boolean;
  /** It was answered before any session of the run had read a description: no grant existed anywhere. */
  beforeAnyRead: boolean;
}

/** What the whole run shows, which decides whose rule a call that ran has broken. */
export interface Evidence {
  /** Tools refused with TOOL_DESCRIPTION_REQUIRED somewhere in the run: the server does enforce them. */
  refusedTools: ReadonlySet<string>;
  /** This run's refusals of each tool, in the order they were sent (the proof that the server gates it). */
  refusals: ReadonlyMap<string, ReadonlyArray<{ session: McpSession; ex: Exchange }>>;
  /** A session that had read nothing at all ran a tool another live session held: grants cross sessions. */
  leaks: boolean;
  /** A call ran after a refusal of the same tool, with nothing read in between: refusals do not hold. */
  refusalsLapse: boolean;
  /**
   * Whether the server enforces descriptions for a tool: it refused it somewhere, or refused others and nothing shows
   * it exempt.
   */
  enforced(tool: string): boolean;
  /**
   * Nothing was refused anywhere, and every unfetched call that ran was made after some session
   * had read descriptions: "no gate at all" and "grants shared by every session" both fit.
   */
  twoReadings: boolean;
}

export function evidenceOf(
  ran: readonly RanCall[],
  refusedTools: ReadonlySet<string>,
  refusals: Evidence['refusals'] = new Map(),
): Evidence {
  const read = (r: RanCall) => r.history.some((h) => h.kind === 'read');
  const calledBefore = (r: RanCall) => r.history.some((h) => h.kind === 'call' && h.tool === r.tool);
  const refusedBefore = (r: RanCall) => r.history.some((h) => h.kind === 'call' && h.tool === r.tool && h.refused);
  // A tool called again, with nothing read in between, ran after a refusal: a refusal that did not
  // hold explains it — unless another session came to hold the tool since, in a session whose
  // refusals are seen to hold (then the grant crossed over).
  const refusalsLapse = ran.some((r) => !read(r) && refusedBefore(r) && (!r.newHolder || !r.refusalsHoldHere));
  // A session that read nothing ran a tool another live session held: its first call of it, or one
  // after a refusal once another session came to hold it, in a session whose refusals are seen to
  // hold (a session whose requests came on another's connection, say) and where none is seen to lapse.
  const leaks = ran.some(
    (r) =>
      r.holders.length > 0 && !read(r) && (!calledBefore(r) || (r.newHolder && r.refusalsHoldHere && !refusalsLapse)),
  );
  // A tool that ran unfetched while no session held it, and was never refused, is not enforced.
  const unenforced = new Set(
    ran
      .filter((r) => !r.holders.length && !r.endedHolders.length && !read(r) && !refusedTools.has(r.tool))
      .map((r) => r.tool),
  );
  const twoReadings = refusedTools.size === 0 && ran.length > 0 && !ran.some((r) => r.beforeAnyRead);
  return {
    refusedTools,
    refusals,
    leaks,
    refusalsLapse,
    twoReadings,
    enforced: (tool) => refusedTools.has(tool) || (refusedTools.size > 0 && !unenforced.has(tool)),
  };
}

/**
 * Whose rule an unexpected authorized call broke (DESIGN, "Ownership"): the most specific
 * explanation the run supports. A tool never refused anywhere is not enforced at all (7); grants
 * that evidently cross sessions (8: inherited from an ended one, or leaked from a live one); a
 * refusal that does not hold (7); a refused, failed or near-name fetch of this session, or a fetch
 * of another tool, that authorized it (6); in a session that read nothing, a grant held elsewhere (8).
 */
export function attribute(
  call: RanCall,
  evidence: Evidence,
  proven: Map<McpSession, Array<{ read: PastRead; code: string }>> = new Map(),
): RuleBreak {
  const { session, tool, ex } = call;
  const brk = (check: string, code: string, args: Record<string, unknown>, before: Exchange[] = []): RuleBreak => ({
    check,
    code,
    args,
    level: 'fail',
    tool,
    proof: [...before, ex],
  });
  // Never refused anywhere, and nothing ran before any read: no gate at all, or grants every session shares.
  const notRefused = () =>
    brk(
      CRITERION.refusal,
      evidence.twoReadings && call.how.code === 'ran-unfetched' ? 'ran-unfetched-never-refused' : call.how.code,
      call.how.args,
    );
  if (!evidence.enforced(tool)) return notRefused();
  // Grants that cross sessions, shown with a refusal of the same tool (this session's first): the
  // server gates it, and let it through only where another session's grant could explain it.
  const refused =
    (evidence.refusals.get(tool) ?? []).find((r) => r.session === session) ?? evidence.refusals.get(tool)?.[0];
  const crossing = (always: boolean) => {
    if (!always && !evidence.leaks) return undefined;
    const ended = call.endedHolders.find((h) => (h.session.endedAt ?? Infinity) <= session.startedAt);
    if (ended)
      return brk(CRITERION.isolation, 'grant-inherited', { session: ended.session.label, tool }, [
        ...(refused ? [refused.ex] : []),
        ...(ended.fetch ? [ended.fetch] : []),
      ]);
    // Of the holders, one whose read went on the very socket of this call shows how it crossed (a shared connection).
    const socket = socketOf(ex);
    const owner =
      call.holders.find((h) => socket !== undefined && h.fetch !== undefined && socketOf(h.fetch) === socket) ??
      call.holders[0] ??
      call.endedHolders[0];
    if (!owner) return undefined;
    const owners = [...new Set([...call.holders, ...call.endedHolders].map((h) => h.session.label))];
    return brk(CRITERION.isolation, 'grant-leaked', { session: session.label, tool, owners }, [
      ...(refused ? [refused.ex] : []),
      ...(owner.fetch ? [owner.fetch] : []),
    ]);
  };
  const crossed = crossing(false);
  if (crossed) return crossed;
  const refusedBefore = call.history.some((h) => h.kind === 'call' && h.tool === tool && h.refused);
  if (refusedBefore && evidence.refusalsLapse) return notRefused();
  const reads = candidateReads(call);
  // A read of this session that already explained an earlier call explains this one too.
  const byRead = (read: PastRead, code: string, args: Record<string, unknown>) => {
    // A read through the tool form that authorized more than the read it mirrors: the tool form's fault.
    if (read.ex.method === 'tools/call')
      return brk(CRITERION.toolForm, 'grants-more', { tool, fetched: read.items.length ? read.items : 'no name' }, [
        read.ex,
      ]);
    return brk(CRITERION.grants, code, args, [read.ex]);
  };
  const earlier = proven.get(session)?.find((p) => reads.includes(p.read));
  if (earlier)
    return byRead(earlier.read, earlier.code, {
      tool,
      fetched: earlier.read.items.length ? earlier.read.items : 'a read without ?tools=',
      names: earlier.read.items.length,
    });
  const own = (read: PastRead, code: string, args: Record<string, unknown>) => {
    (proven.get(session) ?? proven.set(session, []).get(session)!).push({ read, code });
    return byRead(read, code, args);
  };
  const refusedRead = reads.find((r) => r.refused && r.items.some((n) => n.trim() === tool));
  if (refusedRead) return own(refusedRead, 'refused-read-authorized', { tool, names: refusedRead.items.length });
  const nearRead = reads.find(
    (r) => !r.returned.has(tool) && r.items.some((n) => n.trim() !== tool && resembled(n, [tool])),
  );
  if (nearRead) return own(nearRead, 'failed-fetch-authorized', { tool, fetched: nearRead.items });
  const fetchedOther = reads.filter((r) => r.returned.size > 0);
  if (fetchedOther.length) {
    const fetched = [...new Set(fetchedOther.flatMap((r) => [...r.returned]))];
    return own(fetchedOther[fetchedOther.length - 1], 'fetch-authorized-other', { tool, fetched });
  }
  const failed = reads.find((r) => r.returned.size === 0);
  if (failed)
    return own(failed, 'failed-fetch-authorized', {
      tool,
      fetched: failed.items.length ? failed.items : 'a read without ?tools=',
    });
  if (refusedBefore) return notRefused();
  return crossing(true) ?? notRefused();
}

/**
 * The session's reads that may have authorized the call: every read before it, except one after
 * which a call of the same tool was still refused (that read evidently did not authorize it).
 */
function candidateReads(call: RanCall): PastRead[] {
  const reads: PastRead[] = [];
  call.history.forEach((step, i) => {
    if (step.kind !== 'read') return;
    const ruledOut = call.history
      .slice(i + 1)
      .some((later) => later.kind === 'call' && later.tool === call.tool && later.refused);
    if (!ruledOut) reads.push(step.read);
  });
  return reads;
}

/**
 * A call refused although the session held the grant: a grant that lapsed (6), or — refused while
 * other sessions were busy, after it had worked in this session, and working again afterwards with
 * no new fetch — another session's state taken for this one's (8: grants not kept per session).
 */
export function lostGrant(
  session: McpSession,
  tool: string,
  code: string,
  ex: Exchange,
  fetch: Exchange | undefined,
  mixedUp: boolean,
): RuleBreak {
  const proof = [...(fetch ? [fetch] : []), ex];
  // A grant the tool form gave (its answer carried the description) that a call did not find: the tool form grants less
  // than the read.
  if (fetch?.method === 'tools/call')
    return { check: CRITERION.toolForm, code: 'grants-less', args: { tool }, level: 'fail', tool, proof };
  if (mixedUp)
    return {
      check: CRITERION.isolation,
      code: 'own-grant-refused',
      args: { session: session.label, tool },
      level: 'fail',
      tool,
      proof,
    };
  return { check: CRITERION.grants, code: 'grant-not-kept', args: { tool, code }, level: 'fail', tool, proof };
}
