/**
 * The exploration's default budget, in requests: it adds well under a second to a run against the reference server (npm
 * run bench).
 */
export const DEFAULT_EXPLORE = 60;
/**
 * The least time the idle session stays idle between a fetch and the call (s): a fixed window, so
 * that a grant that lapses with idleness is caught in every run however fast the machine (DESIGN,
 * "The same verdict every run"). It waits while the rest of the run is done, so only what exceeds
 * the run is added; `--idle` raises it (0: the run's own length, whatever it is).
 */
export const DEFAULT_IDLE_SECONDS = 2;
/**
 * The longest pause between two moves of a session (ms): long enough for state that expires to show, short enough for a
 * run. A longer wait is the idle session's.
 */
export const MAX_PAUSE_MS = 200;
