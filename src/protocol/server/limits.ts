/**
 * Denial-of-service guards of the reference server (spec §10.3): description fetches are rate
 * limited per session, and one fetch may name only so many tools. Errors follow dashdash §5.3.
 */

/** What the dashdash metadata promises (dashdash.ts): 60 description fetches a minute per session. */
export const DEFAULT_FETCH_LIMIT = 60;
const WINDOW_MS = 60_000;
/** More names than this in one ?tools= is refused: no real client needs it, and it costs the server. */
export const MAX_NAMES_PER_FETCH = 100;

/** A sliding one-minute window of fetch times; `perMinute` 0 means no limit. */
export class FetchLimiter {
  private readonly times: number[] = [];

  constructor(private readonly perMinute: number) {}

  /** Counts a fetch, or throws the rate-limit error (the fetch then authorizes nothing). */
  take(now = Date.now()): void {
    if (this.perMinute <= 0) return;
    while (this.times.length && now - this.times[0] >= WINDOW_MS) this.times.shift();
    if (this.times.length >= this.perMinute) {
      const retryAfter = Math.max(1, Math.ceil((this.times[0] + WINDOW_MS - now) / 1000));
      throw Object.assign(
        new Error(
          `Rate limit exceeded: at most ${this.perMinute} tool description fetches per minute per session; retry after ${retryAfter} s`,
        ),
        {
          code: -32000,
          data: { code: 'RATE_LIMITED', retryAfter, limit: this.perMinute, window: '1 minute' },
        },
      );
    }
    this.times.push(now);
  }
}

/** Refuses a fetch that names too many tools, before any work is done for it. */
export function checkFetchSize(names: string[]): void {
  if (names.length <= MAX_NAMES_PER_FETCH) return;
  throw Object.assign(
    new Error(
      `Too many tools in one fetch: ${names.length} (at most ${MAX_NAMES_PER_FETCH}); fetch them in smaller groups`,
    ),
    {
      code: -32602,
      data: { code: 'TOO_MANY_TOOLS', requested: names.length, max: MAX_NAMES_PER_FETCH },
    },
  );
}
