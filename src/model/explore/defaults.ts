/** The exploration's default budget, in requests: it adds well under a second to a run against the reference server (npm run bench). */
export const DEFAULT_EXPLORE = 60;
