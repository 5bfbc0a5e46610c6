import type { McpSession } from '../transport/session.js';
import { timesOf } from '../transport/exchange-times.js';
import type { Exchange } from '../transport/types.js';
import { opOf, type Op } from './ops.js';

/** One exchange of the run as the model sees it. */
export interface Step {
  session: McpSession;
  ex: Exchange;
  op: Exclude<Op, { kind: 'other' }>;
  sent: number;
  done: number;
}

/** Which exchanges of a session are judged. */
export type Scope = (session: McpSession) => readonly Exchange[];

/** Every exchange of every session. */
export const ALL_EXCHANGES: Scope = (session) => session.exchanges;

/** The steps of sessions, with their times. */
export function stepsOf(sessions: readonly McpSession[], scope: Scope = ALL_EXCHANGES, mirror?: string): Step[] {
  const steps: Step[] = [];
  for (const session of sessions) {
    for (const ex of scope(session)) {
      const op = opOf(ex, mirror);
      const times = timesOf(ex);
      if (op.kind === 'other' || !times) continue;
      steps.push({ session, ex, op, sent: times.sent, done: times.done ?? Number.POSITIVE_INFINITY });
    }
  }
  return steps.sort((a, b) => a.sent - b.sent);
}

/** Whether a step overlapped in time with a step of another session. */
export function overlapsOthers(step: Step, all: readonly Step[]): boolean {
  return all.some((o) => o.session !== step.session && o.sent < step.done && o.done > step.sent);
}
