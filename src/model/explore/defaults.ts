/** The exploration's default budget, in requests: it adds well under a second to a run against the reference server (npm run bench). */
export const DEFAULT_EXPLORE = 60;
/** How long one exploration session stays idle between a fetch and the call (s): a grant that lapses with idleness shows, beside the rest of the work. */
export const DEFAULT_IDLE_SECONDS = 2;
