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

/** What happens in the run, in time order: groups of steps of one session in flight together, and session ends. */
export type Event = { kind: 'group'; session: McpSession; steps: Step[]; at: number } | { kind: 'end'; session: McpSession; at: number };

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

/**
 * The run as events: each session's steps grouped where they were in flight together (a group's
 * steps may have taken effect in any order the model allows), and each session's end.
 */
export function timeline(sessions: readonly McpSession[], scope: Scope = ALL_EXCHANGES, mirror?: string): Event[] {
  const events: Event[] = [];
  const open = new Map<McpSession, { steps: Step[]; until: number }>();
  const flush = (session: McpSession) => {
    const group = open.get(session);
    if (group) events.push({ kind: 'group', session, steps: group.steps, at: group.steps[0]!.sent });
    open.delete(session);
  };
  for (const step of stepsOf(sessions, scope, mirror)) {
    const group = open.get(step.session);
    if (group && step.sent < group.until) {
      group.steps.push(step);
      group.until = Math.max(group.until, step.done);
      continue;
    }
    flush(step.session);
    open.set(step.session, { steps: [step], until: step.done });
  }
  for (const session of [...open.keys()]) flush(session);
  for (const session of sessions) if (session.endedAt !== undefined) events.push({ kind: 'end', session, at: session.endedAt });
  // Ends sort after the steps of the same instant: a step answered before the end happened before it.
  return events.sort((a, b) => a.at - b.at || (a.kind === 'end' ? 1 : 0) - (b.kind === 'end' ? 1 : 0));
}

/** Whether a step overlapped in time with a step of another session. */
export function overlapsOthers(step: Step, all: readonly Step[]): boolean {
  return all.some((o) => o.session !== step.session && o.sent < step.done && o.done > step.sent);
}
