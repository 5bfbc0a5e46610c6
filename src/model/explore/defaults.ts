/** The exploration's default budget, in requests: it adds well under a second to a run against the reference server (npm run bench). */
export const DEFAULT_EXPLORE = 60;
/** How long one exploration session stays idle between a fetch and the call (s): a grant that lapses with idleness shows, beside the rest of the work. */
export const DEFAULT_IDLE_SECONDS = 2;
/** The longest pause between two moves of a session (ms): long enough for state that expires to show, short enough for a run. A longer wait is the idle session's. */
export const MAX_PAUSE_MS = 200;
/** Whether an idle time holds the idle session (a session of its own): only a wait longer than any pause. */
export function holdsIdleSession(idleMs: number | undefined, maxPauseMs = MAX_PAUSE_MS): boolean {
  return (idleMs ?? 0) > maxPauseMs;
}
