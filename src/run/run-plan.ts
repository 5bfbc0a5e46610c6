// What a protocol era's run will do, decided once from the run's options and its checks before
// anything starts: the phases in order, the sessions its checks open and whether they share one,
// which tools may be called, the exploration, and the sessions started ahead. checkEras builds it
// once for every era; checkTarget carries it out (the era schedule, src/run/era-schedule.ts, adds
// what the probe shows). Below the plan nothing reads the options: the checks read their own
// settings (`settings`) through their context.
import { explorationSessions } from '../model/explore/explore.js';
import type { LiveCheck } from './check.js';
import type { LiveOptions, RunSettings } from './options.js';
import { phasesFor, type Phase, type PhaseSelection } from './phases.js';
import { sessionPlan, sharesSessions, turnOrder } from './session-plan.js';

/** What one era's run carries out: the settings its Run reads (src/run/options.ts), its checks and phases. */
export interface RunPlan extends RunSettings {
  readonly checks: readonly LiveCheck[];
  readonly phases: readonly Phase[];
}

/** What decides the phases of a run: the facts its checks read, and whether it explores. */
export function selectionOf(checks: readonly LiveCheck[], options: Pick<LiveOptions, 'explore'>): PhaseSelection {
  return {
    reads: new Set(['discovery', ...checks.flatMap((c) => c.reads ?? [])]),
    explores: options.explore > 0 && checks.some((c) => c.spec.criterion !== undefined),
  };
}

/** The plan of every era's run against one server. */
export function runPlan(checks: readonly LiveCheck[], options: LiveOptions, cheapSessions: boolean): RunPlan {
  const shares = sharesSessions(cheapSessions ? 'http' : 'stdio', options.sessions);
  return {
    checks,
    phases: phasesFor(selectionOf(checks, options)),
    sessions: options.sessions,
    ...(shares ? { turns: turnOrder(checks) } : {}),
    calls: {
      safeCalls: options.safeCalls,
      allowDestructive: options.allowDestructive ?? false,
      safeTools: options.safeTools ?? [],
    },
    exploration: {
      budget: options.explore,
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.seedFrom ? { seedFrom: options.seedFrom } : {}),
      idleMs: options.idleMs ?? 0,
    },
    cheapSessions,
    settings: options,
  };
}

/**
 * How many sessions a run opens besides the probe at first, as its session plan says (the plan
 * --explain-plan prints): the clean session (if some check uses it), the checks' own, and the
 * exploration's live ones (it runs beside the checks).
 */
export function plannedOpens(
  checks: readonly LiveCheck[],
  options: Pick<LiveOptions, 'sessions' | 'explore'>,
  cheapSessions = false,
  toolForm = false,
): number {
  const transport = cheapSessions ? 'http' : 'stdio';
  const sessions = explorationSessions(
    cheapSessions ? 'cheap' : 'process',
    options.explore,
    true,
    sharesSessions(transport, options.sessions),
  );
  const explore = selectionOf(checks, options).explores ? sessions.total : 0;
  return sessionPlan(checks, { sessions: options.sessions, transport, explore, exploreAhead: sessions.live, toolForm })
    .ahead;
}

/**
 * The sessions a plan's run starts ahead: `first`, before the probe's answers tell more (the
 * exploration's only once the server lists something to explore); `listed`, once it did (with the
 * tool form's, where it has one).
 */
export function opensAhead(plan: RunPlan, stage: 'first' | 'listed', toolForm = false): number {
  const explore = stage === 'first' ? 0 : plan.exploration.budget;
  return plannedOpens(plan.checks, { sessions: plan.sessions, explore }, plan.cheapSessions, toolForm);
}
