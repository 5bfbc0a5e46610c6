/** The exploration's default budget, in requests: it adds well under a second to a run against the reference server (npm run bench). */
export const DEFAULT_EXPLORE = 60;
/**
 * The least time the idle session stays idle between a fetch and the call (s). By default none is
 * added: it stays idle while the rest of the run is done, and calls at its end (its idle time is the
 * run's own length); `--idle` sets a minimum, and only what exceeds the run is added.
 */
export const DEFAULT_IDLE_SECONDS = 0;
/** The longest pause between two moves of a session (ms): long enough for state that expires to show, short enough for a run. A longer wait is the idle session's. */
export const MAX_PAUSE_MS = 200;

