import { freshOf, opensOf, readsTraffic } from '../core/check.js';
import type { LiveCheck } from './check.js';
import { PHASES, type PhaseSelection } from './phases.js';

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

/**
 * Whether the checks with a `turn` share one session (P) in turn: over stdio, where each session
 * is a server process (a heavy server costs seconds and hundreds of MB a start), unless --sessions
 * asks for more than the default. Over HTTP sessions are cheap and each check keeps its own.
 */
export function sharesSessions(transport: 'stdio' | 'http', sessions: number): boolean {
  return transport === 'stdio' && sessions <= DEFAULT_SESSIONS.stdio;
}

/** The ids of the checks that take the shared session, in their turns' order. */
export function turnOrder(checks: readonly Pick<LiveCheck, 'id' | 'turn'>[]): string[] {
  return checks
    .filter((c) => c.turn !== undefined)
    .sort((a, b) => a.turn! - b.turn!)
    .map((c) => c.id);
}

/** One row of the session plan: a phase of the run, or a check in the checks phase. */
export interface PlanStep {
  /** 1-based position. */
  order: number;
  /** A check id, or a phase id (probe, unfetched-read-only, descriptions, exploration…). */
  id: string;
  kind: 'phase' | 'check';
  criterion?: number;
  /**
   * Sessions it uses: S0 is the probe, C the run's clean session, P the shared session (`shared`:
   * 'after' when this step starts it after others ended); new ones are numbered as they open.
   */
  sessions: { probe: boolean; clean: boolean; opened: string[]; fresh: string[]; shared?: 'taken' | 'after' };
  /** Why, from the check's own `sessionUse` or the phase's description. */
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
  /**
   * Sessions the run starts ahead besides the probe, warming while it runs: the clean session, the
   * checks' own, the shared session unless it starts after others ended, and the exploration's live
   * ones (`exploreAhead`). What the run reserves of its target (src/run/live.ts).
   */
  ahead: number;
  /** Whether the run opens its clean session (C). */
  clean: boolean;
  /** Whether the checks with a turn share the session P (over stdio), and which of them do. */
  shared?: string[];
}

type PlannedCheck = Pick<
  LiveCheck,
  'id' | 'spec' | 'opens' | 'fresh' | 'sessionUse' | 'reads' | 'clean' | 'provenIn' | 'turn'
>;

/**
 * The sessions a run of these checks opens, phase by phase (src/run/phases.ts, the same table the
 * runner carries out), the checks in the checks phase in report order, then the exploration's
 * (`explore`: its sessions, 0 when it is off; `idleSeconds`: the first of them is the idle
 * session, idle at least that long) and the checks that read the traffic.
 */
export function sessionPlan(
  checks: readonly PlannedCheck[],
  options: {
    sessions: number;
    transport: 'stdio' | 'http';
    explore?: number;
    exploreAhead?: number;
    idleSeconds?: number;
    toolForm?: boolean;
  },
): SessionPlan {
  const shared = sharesSessions(options.transport, options.sessions);
  const planOptions = {
    sessions: options.sessions,
    selected: checks.map((c) => c.id),
    shared,
    ...(options.toolForm !== undefined ? { toolForm: options.toolForm } : {}),
  };
  const turns = shared ? turnOrder(checks) : [];
  const selection: PhaseSelection = {
    reads: new Set(['discovery', ...checks.flatMap((c) => c.reads ?? [])]),
    explores: (options.explore ?? 0) > 0,
  };
  const clean = checks.some((c) => c.clean || c.reads?.includes('unfetched-calls'));
  let next = 1;
  const label = (count: number, prefix = 'S') => Array.from({ length: count }, () => `${prefix}${next++}`);
  let freshCount = 0;
  let openedCount = 0;
  let exploring = 0;
  const steps: PlanStep[] = [];
  const checkStep = (check: PlannedCheck): PlanStep => {
    const opened = label(opensOf(check, planOptions));
    const fresh = label(freshOf(check, planOptions));
    const turn = turns.indexOf(check.id);
    freshCount += fresh.length;
    openedCount += opened.length;
    const use = typeof check.sessionUse === 'function' ? check.sessionUse(planOptions) : check.sessionUse;
    return {
      order: 0,
      id: check.id,
      kind: 'check',
      ...(check.spec.criterion !== undefined ? { criterion: check.spec.criterion } : {}),
      sessions: {
        probe: !readsTraffic(check) && check.provenIn !== 'clean',
        clean: check.clean === true || check.provenIn === 'clean',
        opened,
        fresh,
        ...(turn >= 0 ? { shared: turn === 0 && check.fresh ? ('after' as const) : ('taken' as const) } : {}),
      },
      use: use ?? 'the probe only',
    };
  };
  for (const phase of PHASES.filter((p) => p.runs(selection))) {
    if (phase.id === 'checks') {
      steps.push(...checks.filter((c) => !readsTraffic(c)).map(checkStep));
    } else if (phase.id === 'traffic') {
      steps.push(...checks.filter(readsTraffic).map(checkStep));
    } else if (phase.id === 'exploration') {
      // Sessions of its own, beside the checks.
      const opened = Array.from({ length: options.explore ?? 0 }, (_, i) => `X${i + 1}`);
      exploring = opened.length;
      // Sharing sessions, the idle session is the probe once the checks are done with it.
      const idle = shared
        ? 'S0 is then the idle session: once the checks are done with it, it fetches and calls one tool'
        : 'X1 is the idle session: it fetches and calls one tool';
      steps.push({
        order: 0,
        id: 'exploration',
        kind: 'phase',
        sessions: { probe: shared && options.idleSeconds !== undefined, clean: false, opened, fresh: [] },
        use:
          `sequences of operations generated from the seed, in ${opened.length} sessions of its own at the same time as the checks, judged by the model once they are done; a divergence is replayed in new sessions to shrink it` +
          (options.idleSeconds !== undefined && opened.length
            ? `. ${idle}, stays idle while everything else is done (the next protocol era's run too${options.idleSeconds ? `; at least ${options.idleSeconds} s, --idle` : ''}), then calls it again`
            : ''),
      });
    } else if (phase.id !== 'end-of-checks' && phase.id !== 'judgement') {
      steps.push({
        order: 0,
        id: phase.id,
        kind: 'phase',
        sessions: { probe: phase.sessions.includes('S0'), clean: phase.sessions.includes('C'), opened: [], fresh: [] },
        use: phase.what,
      });
    }
  }
  steps.forEach((s, i) => (s.order = i + 1));
  // The shared session is one of the run's, started ahead unless its first check starts it after others ended.
  const sharedAfter = steps.some((s) => s.sessions.shared === 'after');
  const total = next + exploring + (clean ? 1 : 0) + (turns.length ? 1 : 0);
  const ahead =
    (clean ? 1 : 0) +
    openedCount +
    (turns.length && !sharedAfter ? 1 : 0) +
    (exploring ? (options.exploreAhead ?? exploring) : 0);
  return {
    transport: options.transport,
    sessions: options.sessions,
    steps,
    total,
    upFront: total - freshCount - (sharedAfter ? 1 : 0),
    ahead,
    clean,
    ...(turns.length ? { shared: turns } : {}),
  };
}
