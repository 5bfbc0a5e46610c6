import type { CheckDefinition } from './check.js';

/** What a run tells its caller as it goes (a progress line); never used to decide anything. */
export interface RunHooks {
  /** Told when the first session starts, then every second until it has started. */
  onStartWait?(seconds: number): void;
  /** Told when a check starts; `index` counts the checks started so far. */
  onCheckStart?(check: { id: string; opens?: CheckDefinition<unknown>['opens'] }, index: number, total: number): void;
  /** Told when a check has finished (the CLI collects garbage there on large runs). */
  onCheckEnd?(check: { id: string }): void;
}
