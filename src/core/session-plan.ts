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
  /** Sessions it uses: S0 is the probe, C the run's clean session; new ones are numbered as they open. */
  sessions: { probe: boolean; clean: boolean; opened: string[]; fresh: string[] };
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
  /** Whether the run opens its clean session (C). */
  clean: boolean;
}

type PlannedCheck = Pick<LiveCheck, 'id' | 'spec' | 'opens' | 'fresh' | 'sessionUse' | 'runs' | 'clean'>;

/**
 * The sessions a run of these checks opens, check by check, in the order the checks run, then the
 * exploration's (`explore`: its sessions, 0 when it is off).
 */
export function sessionPlan(checks: readonly PlannedCheck[], options: { sessions: number; transport: 'stdio' | 'http'; explore?: number }): SessionPlan {
  const planOptions = { sessions: options.sessions, selected: checks.map((c) => c.id) };
  let next = 1;
  const label = (count: number, prefix = 'S') => Array.from({ length: count }, () => `${prefix}${next++}`);
  let freshCount = 0;
  const clean = checks.some((c) => c.clean) ? 1 : 0;
  const steps = executionOrder(checks).map((check, i): PlanStep => {
    const opened = label(opensOf(check, planOptions));
    const fresh = label(check.fresh ?? 0);
    freshCount += fresh.length;
    const use = typeof check.sessionUse === 'function' ? check.sessionUse(planOptions) : check.sessionUse;
    return {
      order: i + 1,
      id: check.id,
      ...(check.spec.criterion !== undefined ? { criterion: check.spec.criterion } : {}),
      sessions: { probe: check.runs !== 'last', clean: check.clean === true, opened, fresh },
      use: use ?? 'the probe only',
    };
  });
  const explore = options.explore ?? 0;
  if (explore > 0) {
    const at = steps.findIndex((s) => checks.find((c) => c.id === s.id)?.runs === 'last');
    // It starts in the sessions that hold nothing once the checks are done: the clean one and the one started last.
    const reused = clean + freshCount;
    const opened = Array.from({ length: Math.max(0, explore - reused) }, (_, i) => `X${i + 1}`);
    next += opened.length;
    const step: PlanStep = { order: 0, id: 'exploration', sessions: { probe: false, clean: clean === 1, opened, fresh: [] },
      use: `sequences of operations generated from the seed, judged by the model, in ${reused ? `the sessions that hold nothing once the checks are done${opened.length ? ' and' : ''}` : ''}${opened.length ? ` ${opened.length} new` : ''}; a divergence is replayed in new sessions to shrink it` };
    steps.splice(at < 0 ? steps.length : at, 0, step);
    steps.forEach((s, i) => (s.order = i + 1));
  }
  return { transport: options.transport, sessions: options.sessions, steps, total: next + clean, upFront: next + clean - freshCount, clean: clean === 1 };
}
