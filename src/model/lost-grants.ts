// Whose rule a refused call of a granted tool broke: a grant the session did not keep (6), or —
// over HTTP, beside other sessions' requests — another session's state taken for this one's (8).
import { classifyCall } from '../protocol/calls.js';
import { connectionOf } from '../transport/exchange-times.js';
import type { Exchange } from '../transport/types.js';
import type { Step } from './timeline.js';

/** A call refused although its session surely held the grant. */
export interface LostGrant {
  step: Step;
  code: string;
  /** The read that gave the grant. */
  fetch?: Exchange;
  /** It overlapped in time with a request of another session. */
  concurrent: boolean;
  /** A call of the same tool had run in this session before it was sent. */
  workedBefore: boolean;
}

/** Whether the refusal is best explained as sessions mixed up (8) rather than a grant not kept (6). */
export function mixedUp(lost: LostGrant, all: readonly Step[]): boolean {
  return (
    lost.concurrent &&
    lost.workedBefore &&
    !onAnotherConnection(lost.step, lost.fetch, all) &&
    recovered(lost.step, all)
  );
}

/**
 * Whether a refused call went on a connection of its session (over HTTP) on which the grant was
 * never seen, neither by its fetch nor by a call that ran: a server may keep grants by connection,
 * and which of a session's connections a request takes is the client's pool's doing (requests at
 * once take several; which is free next follows when answers end). Such a refusal is a grant not
 * kept for the session (6), never sessions mixed up (8): in 1 of ~20 runs beside busy loops a
 * per-connection server's call went back to the fetch's connection, and worked, and was taken for a mix-up.
 */
function onAnotherConnection(step: Step, fetch: Exchange | undefined, all: readonly Step[]): boolean {
  const on = connectionOf(step.ex);
  if (on === undefined) return false;
  const tool = (step.op as { tool: string }).tool;
  const held = new Set(fetch ? [connectionOf(fetch)] : []);
  for (const s of all) {
    if (
      s.session === step.session &&
      s.sent < step.sent &&
      s.op.kind === 'call' &&
      s.op.tool === tool &&
      classifyCall(s.ex).kind === 'authorized'
    )
      held.add(connectionOf(s.ex));
  }
  return !held.has(on);
}

/**
 * Whether a grant refused at `step` worked again later in its session with no new read of the
 * tool in between: the loss did not last, so the answer was another session's (a request of it
 * taken for this one's), not a grant that lapsed.
 */
function recovered(step: Step, all: readonly Step[]): boolean {
  const tool = (step.op as { tool: string }).tool;
  for (const later of all) {
    if (later.session !== step.session || later.sent <= step.sent) continue;
    if (later.op.kind === 'read' && later.op.items.some((n) => n.trim() === tool)) return false;
    if (later.op.kind === 'call' && later.op.tool === tool && classifyCall(later.ex).kind === 'authorized') return true;
  }
  return false;
}
