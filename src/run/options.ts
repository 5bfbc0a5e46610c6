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
  /** The least time the idle session stays idle after a fetch before it calls the tool (ms; default: none added — it waits for the rest of the run). */
  idleMs?: number;
}
