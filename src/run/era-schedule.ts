// How the protocol eras of a run share its time (DESIGN, "The session plan"), as data: decided once
// from what the server showed — its probe's memory or command (heavy), its listing's size (large) —
// then carried out by checkEras and checkTarget, which decide nothing of it themselves, and printed
// by --explain-plan, every form it can take.
import { HEAVY_AT_ONCE, HEAVY_SERVER_MB } from './heavy.js';

/**
 * Above this many tools an era's run does not overlap the next one's: such a run is bound by the
 * checker's CPU and memory, not by waiting, and two eras' listings would be held at once.
 */
export const OVERLAP_MAX_TOOLS = 1000;

/** What decides a run's era schedule: the server's weight. */
export type ServerWeight = 'default' | 'large' | 'heavy';

export interface EraSchedule {
  weight: ServerWeight;
  /**
   * When a later era's run starts: once the era before has made its calls before any fetch (the runs
   * overlap: a server that mostly waits is checked in both eras in about the time of one), once it is
   * quiet (its checks and exploration done), or once it has ended.
   */
  laterEraStarts: 'after-first-calls' | 'when-quiet' | 'after-end';
  /** An era's sessions start warming as soon as its probe answers (else each when it is opened). */
  warmAhead: boolean;
  /**
   * A later era's probe ends once the first era's answered, and starts again in its turn (a process alive for nothing
   * meanwhile).
   */
  laterProbesRestart: boolean;
  /** A later era's probe lists its server while the era before runs. */
  laterEraListsEarly: boolean;
  /** The first era's idle session waits through the later eras' runs (else each era's within its own run). */
  idleThroughLaterEras: boolean;
  /**
   * What a later era's run takes of what the calls of the eras before taught: beside them, only what keeps calls
   * harmless.
   */
  laterEraLearns: 'what-keeps-calls-harmless' | 'everything';
  /**
   * The exploration's sessions start once the checks' sessions have ended (at most three server processes alive at
   * once).
   */
  explorationAfterChecks: boolean;
}

/**
 * The schedule for a server: heavy (said by its probe), else large by its listing (`tools`, once known), else the
 * default.
 */
export function eraSchedule(server: { heavy: boolean; tools?: number }): EraSchedule {
  const weight: ServerWeight = server.heavy ? 'heavy' : (server.tools ?? 0) > OVERLAP_MAX_TOOLS ? 'large' : 'default';
  return scheduleOf(weight);
}

function scheduleOf(weight: ServerWeight): EraSchedule {
  const laterEraStarts = weight === 'default' ? 'after-first-calls' : weight === 'large' ? 'when-quiet' : 'after-end';
  return {
    weight,
    laterEraStarts,
    warmAhead: weight !== 'heavy',
    laterProbesRestart: weight === 'heavy',
    laterEraListsEarly: weight === 'default',
    idleThroughLaterEras: weight !== 'heavy',
    laterEraLearns: laterEraStarts === 'after-first-calls' ? 'what-keeps-calls-harmless' : 'everything',
    explorationAfterChecks: weight === 'heavy',
  };
}

/** Every form the schedule takes, as --explain-plan prints them. */
export const ERA_SCHEDULES: readonly EraSchedule[] = (['default', 'large', 'heavy'] as const).map(scheduleOf);

/** Which server gets this schedule, in words. */
export function weightText(weight: ServerWeight): string {
  if (weight === 'heavy')
    return `A heavy server (its probe holds ${HEAVY_SERVER_MB} MB or more once it answered, read from /proc; or its command starts a container: docker, podman or nerdctl run)`;
  return weight === 'large' ? `A server of more than ${OVERLAP_MAX_TOOLS.toLocaleString('en-US')} tools` : 'By default';
}

/** What the schedule does, in words (the clauses follow its fields). */
export function scheduleText(s: EraSchedule): string {
  const start =
    s.laterEraStarts === 'after-first-calls'
      ? 'a later era once the one before has made its calls before any fetch (the runs overlap)'
      : s.laterEraStarts === 'when-quiet'
        ? 'a later era once the one before is quiet, its checks and exploration done (two listings are never held at once)'
        : `at most ${HEAVY_AT_ONCE} server processes alive at once — the eras one after the other`;
  const clauses = [
    start,
    ...(s.laterProbesRestart ? ["a later era's probe ends and starts again in its turn"] : []),
    ...(s.laterEraListsEarly ? ['its probe lists the server while the era before runs'] : []),
    s.idleThroughLaterEras
      ? "the first era's idle session waits through the later eras' runs"
      : "each era's idle session waits within its era",
    ...(s.explorationAfterChecks ? ["the exploration's sessions once the checks' have ended"] : []),
    s.laterEraLearns === 'everything'
      ? 'a later era learns all the calls before it taught'
      : 'beside the era before, a later era learns only what keeps its calls harmless',
    ...(s.weight === 'heavy' ? ['the run takes longer'] : []),
  ];
  return `${weightText(s.weight)}: ${clauses.join('; ')}.`;
}
