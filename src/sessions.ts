import { executionOrder, opensOf, type LiveCheck } from './check.js';

/**
 * How many parallel sessions criterion 8 uses by default, per transport. Over stdio each session
 * is a server process (and real servers take up to seconds to start): sessions can only share
 * grants through files or services, which three sessions — one that fetched nothing, one that
 * fetched one tool, one that fetched everything — already show. Over HTTP one process serves all
 * sessions and sessions are cheap: the faults that matter there (a global grant set, a map keyed
 * wrongly, a "current session" variable overwritten by concurrent requests) show more often the
 * more sessions run at once.
 */
export const DEFAULT_SESSIONS = { stdio: 3, http: 16 } as const;

/** One check's place in the session plan of a run. */
export interface PlanStep {
  /** 1-based position in the order the checks run. */
  order: number;
  id: string;
  criterion?: number;
  /** Sessions it uses: S0 is the probe; new ones are numbered as they open. */
  sessions: { probe: boolean; reused: string[]; opened: string[]; fresh: string[] };
  /** Why, from the check's own `sessionUse` (the probe only, when it says nothing). */
  use: string;
}

export interface SessionPlan {
  transport: 'stdio' | 'http';
  sessions: number;
  steps: PlanStep[];
  /** Sessions of the whole run, the probe included (over stdio, server processes). */
  total: number;
  /** Of those, how many start at once at the beginning (all but the brand-new ones). */
  upFront: number;
}

type PlannedCheck = Pick<LiveCheck, 'id' | 'spec' | 'opens' | 'fresh' | 'sessionUse' | 'runs' | 'reuses'>;

/** The sessions a run of these checks opens, check by check, in the order the checks run. */
export function sessionPlan(checks: readonly PlannedCheck[], options: { sessions: number; transport: 'stdio' | 'http' }): SessionPlan {
  const planOptions = { sessions: options.sessions, selected: checks.map((c) => c.id) };
  let next = 1;
  const label = (count: number) => Array.from({ length: count }, () => `S${next++}`);
  const openedBy = new Map<string, string[]>();
  let freshCount = 0;
  const steps = executionOrder(checks).map((check, i): PlanStep => {
    const opened = label(opensOf(check, planOptions));
    openedBy.set(check.id, opened);
    const fresh = label(check.fresh ?? 0);
    freshCount += fresh.length;
    const use = typeof check.sessionUse === 'function' ? check.sessionUse(planOptions) : check.sessionUse;
    return {
      order: i + 1,
      id: check.id,
      ...(check.spec.criterion !== undefined ? { criterion: check.spec.criterion } : {}),
      sessions: { probe: check.runs !== 'last', reused: (check.reuses && openedBy.get(check.reuses)) || [], opened, fresh },
      use: use ?? 'the probe only',
    };
  });
  return { transport: options.transport, sessions: options.sessions, steps, total: next, upFront: next - freshCount };
}
