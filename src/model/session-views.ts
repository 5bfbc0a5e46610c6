// What a session held at a step, whatever order the server took its requests in. Grants only grow
// within a session (a read adds, nothing takes away), so where requests overlap in time (one sent
// before another was answered) two views bound every serial order real time allows: a read answered
// before a step was sent surely came first; a read sent before the step was answered may have.
import type { McpSession } from '../transport/session.js';
import type { Exchange } from '../transport/types.js';
import { transition } from './state.js';
import type { Step } from './timeline.js';
import { emptySession, type World } from './world.js';

/** One read of a session, as the model's transition takes it: what it grants and leaves open, and when. */
interface ReadMark {
  step: Step;
  grants: ReadonlySet<string>;
  open: ReadonlySet<string>;
}

export class SessionViews {
  private readonly reads = new Map<McpSession, ReadMark[]>();

  /** `steps`: every judged step, in the order they were sent. */
  constructor(
    readonly world: World,
    steps: readonly Step[],
  ) {
    for (const step of steps) {
      if (step.op.kind !== 'read' && step.op.kind !== 'read-missing') continue;
      // The transition from an empty state is what this read adds, in any order (grants are a union).
      const model = emptySession();
      transition(world, model, step.op, step.ex);
      const list = this.reads.get(step.session) ?? this.reads.set(step.session, []).get(step.session)!;
      list.push({ step, grants: model.grants, open: model.open });
    }
  }

  /** Grants of reads answered before `at`: held at `at` in every order the server could have taken. */
  surely(session: McpSession, at: number): Set<string> {
    return this.union(session, (r) => r.step.done < at);
  }

  /** Grants of reads sent before `at`: held at `at` in some order the server could have taken. */
  possibly(session: McpSession, at: number): Set<string> {
    return this.union(session, (r) => r.step.sent < at);
  }

  /** Whether `tool` was given by a read sent (`possibly`) or answered (`surely`) before `at`. */
  holds(session: McpSession, tool: string, at: number, how: 'surely' | 'possibly'): boolean {
    return this.fetchOf(session, tool, at, how) !== undefined;
  }

  /**
   * Whether, at `step`, a read that may have come before it left the state of `tool` open (no answer
   * came, or it described what it was not asked for), and no read surely before it granted the tool.
   */
  isOpen(step: Step, tool: string): boolean {
    const reads = this.reads.get(step.session) ?? [];
    return (
      reads.some((r) => r.step.sent < step.done && r.open.has(tool)) &&
      !this.holds(step.session, tool, step.sent, 'surely')
    );
  }

  /** The last read that granted `tool` among those sent (`possibly`) or answered (`surely`) before `at`. */
  fetchOf(session: McpSession, tool: string, at: number, how: 'surely' | 'possibly'): Exchange | undefined {
    const before = (r: ReadMark) => (how === 'surely' ? r.step.done : r.step.sent) < at;
    const granting = (this.reads.get(session) ?? []).filter((r) => before(r) && r.grants.has(tool));
    return granting[granting.length - 1]?.step.ex;
  }

  /** Every grant the session was given, each with the read that first gave it (held until its end). */
  held(session: McpSession): Map<string, Exchange | undefined> {
    const held = new Map<string, Exchange | undefined>();
    for (const r of this.reads.get(session) ?? [])
      for (const tool of r.grants) if (!held.has(tool)) held.set(tool, r.step.ex);
    return held;
  }

  private union(session: McpSession, take: (r: ReadMark) => boolean): Set<string> {
    const out = new Set<string>();
    for (const r of this.reads.get(session) ?? []) if (take(r)) for (const tool of r.grants) out.add(tool);
    return out;
  }
}
