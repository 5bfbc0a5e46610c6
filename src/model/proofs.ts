import type { McpSession } from '../transport/session.js';
import type { Exchange } from '../transport/types.js';
import type { Args } from '../core/messages.js';
import { CRITERION } from './world.js';

/** A call of a tool the session had not fetched, refused with TOOL_DESCRIPTION_REQUIRED, and who held the tool then. */
export interface SeenRefusal {
  session: McpSession;
  tool: string;
  ex: Exchange;
  /** Another live session holding the tool at that moment (the read that gave it). */
  heldBy?: { session: McpSession; fetch?: Exchange };
  /** A session that held the tool and had ended before this one started. */
  endedHolder?: { session: McpSession; fetch?: Exchange };
}

/** A call of a tool its session had fetched, answered and not refused: the grant let it through. */
export interface SeenGrantedRun {
  session: McpSession;
  tool: string;
  ex: Exchange;
  fetch?: Exchange;
}

/** What the judge saw that proves criteria rather than breaks them. */
export interface Observed {
  refusals: SeenRefusal[];
  granted: SeenGrantedRun[];
}

/**
 * A criterion's proof: the exchanges that show it holds, said by a code of its owning check. Or,
 * when the run saw nothing that proves it, why (a code, whose hint says what would prove it).
 */
export type ProofOf =
  { check: string; code: 'proof'; args: Args; proof: Exchange[] } | { check: string; missing: string; args: Args };

/** The same candidates in the same order, whatever the timing: by session label, then tool. */
function stable<T extends { session: McpSession; tool: string }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) =>
    a.session.label < b.session.label
      ? -1
      : a.session.label > b.session.label
        ? 1
        : a.tool < b.tool
          ? -1
          : a.tool > b.tool
            ? 1
            : 0,
  );
}

/**
 * The proofs of criteria 6, 7 and 8 (DESIGN, "A pass is a proof"): #7 unfetched calls answered by
 * refusals; #6 one session in which a fetched tool ran and an unfetched one was refused; #8 a
 * session refused a tool another live session held, and a session opened after others ended
 * refused what they held. Without one, the reason it is missing.
 */
export function proofsOf(observed: Observed): ProofOf[] {
  const refusals = stable(observed.refusals);
  const granted = stable(observed.granted);
  const out: ProofOf[] = [];

  const first = refusals[0];
  out.push(
    first
      ? {
          check: CRITERION.refusal,
          code: 'proof',
          args: { tool: first.tool, session: first.session.label, count: refusals.length },
          proof: [first.ex],
        }
      : { check: CRITERION.refusal, missing: 'nothing-refused', args: {} },
  );

  // Another tool refused beside the one let through shows the grant is per tool; the same tool refused before its
  // fetch, that the fetch is what opened it.
  const together =
    granted
      .map((g) => ({ g, r: refusals.find((r) => r.session === g.session && r.tool !== g.tool) }))
      .find((p) => p.r) ??
    granted.map((g) => ({ g, r: refusals.find((r) => r.session === g.session) })).find((p) => p.r);
  if (together) {
    const { g, r } = together;
    out.push({
      check: CRITERION.grants,
      code: 'proof',
      args: { session: g.session.label, tool: g.tool, refused: r!.tool },
      proof: [...(g.fetch ? [g.fetch] : []), g.ex, r!.ex],
    });
  } else {
    out.push({
      check: CRITERION.grants,
      missing: !refusals.length ? 'no-refusal' : !granted.length ? 'no-granted-call' : 'not-in-one-session',
      args: {},
    });
  }

  const beside = refusals.find((r) => r.heldBy);
  const after = refusals.find((r) => r.endedHolder);
  if (beside && after) {
    out.push({
      check: CRITERION.isolation,
      code: 'proof',
      args: {
        refused: beside.session.label,
        tool: beside.tool,
        holder: beside.heldBy!.session.label,
        after: after.session.label,
        ended: after.endedHolder!.session.label,
        inherited: after.tool,
      },
      proof: [
        ...(beside.heldBy!.fetch ? [beside.heldBy!.fetch] : []),
        beside.ex,
        ...(after.endedHolder!.fetch ? [after.endedHolder!.fetch] : []),
        after.ex,
      ],
    });
  } else {
    out.push({
      check: CRITERION.isolation,
      missing: !refusals.length ? 'no-refusal' : !beside ? 'no-refusal-beside-holder' : 'no-refusal-after-end',
      args: {},
    });
  }
  return out;
}
