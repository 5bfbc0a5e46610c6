/** The settings of a live run, resolved (every default applied once, in the library). */
export interface LiveOptions {
  /** Per-request timeout in ms. */
  timeoutMs: number;
  /** How many parallel sessions pd-session-isolation opens. */
  sessions: number;
  /** Call only tools marked read-only. */
  safeCalls: boolean;
  /** Tools the user named safe to call as read-only ones are (`--safe-tool`). */
  safeTools?: readonly string[];
  /** Give destructive tools (annotations.destructiveHint) their example arguments. */
  allowDestructive?: boolean;
  /** Budgets of tools/list (`--max-tools`, `--max-tokens`): past one, the run fails. */
  maxTools?: number;
  maxTokens?: number;
  /** Optional extensions that must be present (their absence fails instead of skipping). */
  require: Array<'dashdash' | 'toolcards'>;
  /** A folder of Tool Card files (<tool>.json) to compare with the live tools (`--cards`). */
  cardsDir?: string;
  /** Requests the model-based exploration may send (0: off). */
  explore: number;
  /** Seed of the exploration (undefined: derived from each era's tools/list, see listingSeed). */
  seed?: number;
  /** Where the seed comes from (said in the report). */
  seedFrom?: 'listing' | 'given' | 'random';
  /**
   * The least time the idle session stays idle after a fetch before it calls the tool (ms; default: none added — it
   * waits for the rest of the run).
   */
  idleMs?: number;
}

/**
 * Which tools a run may call, and how: --safe-calls, --safe-tool and --allow-destructive, read once by the run's plan.
 */
export interface CallPolicy {
  /** Only tools marked read-only (or named safe) are called. */
  safeCalls: boolean;
  /** Destructive tools get their example arguments. */
  allowDestructive: boolean;
  /** Tools the user named safe to call as read-only ones are. */
  safeTools: readonly string[];
}

export interface ExplorationPlan {
  /** Requests it may send (0: it does not run). */
  budget: number;
  /** Its seed; undefined: a digest of the era's tools/list. */
  seed?: number;
  seedFrom?: LiveOptions['seedFrom'];
  /** The idle session's least idleness after a fetch, ms (0: the run's own length). */
  idleMs: number;
}

/** What a run's plan says to the run itself (src/run/run-plan.ts): nothing below it reads the options. */
export interface RunSettings {
  /** The parallel sessions of the isolation check. */
  readonly sessions: number;
  /** The checks with a turn share one session, in this order (over stdio); undefined: each keeps its own. */
  readonly turns?: readonly string[];
  readonly calls: CallPolicy;
  readonly exploration: ExplorationPlan;
  /** Sessions are cheap (HTTP: one process serves them all), or each is a server process. */
  readonly cheapSessions: boolean;
  /** The checks' settings (budgets, --cards, --require…), which their context gives them. */
  readonly settings: LiveOptions;
}
