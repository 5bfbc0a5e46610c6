// The run's time limit (--max-duration): when it ends, and waits that end with it.
import type { RunDeadline } from '../core/execute.js';
import { TargetUnavailableError } from '../transport/types.js';
import { within } from '../util/concurrency.js';

/** What `outcome` settles with by the deadline, or undefined when the deadline comes first. */
export async function settledBy<T>(outcome: Promise<T>, deadline: RunDeadline | undefined): Promise<T | undefined> {
  return deadline ? within(outcome, deadline.at - performance.now()) : outcome;
}

/** The run's deadline, from its start, when it has a time limit. */
export function deadlineOf(maxDurationMs: number | undefined, since: number): RunDeadline | undefined {
  return maxDurationMs === undefined
    ? undefined
    : { at: since + maxDurationMs, seconds: Math.round(maxDurationMs / 100) / 10 };
}

/** The probe must end within the run's time too; a server too slow for it is unreachable in effect. */
export async function withinDeadline<T>(work: Promise<T>, deadline: RunDeadline | undefined): Promise<T> {
  if (!deadline) return work;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new TargetUnavailableError(
            `the server did not finish answering the first session's requests within the run's time limit, --max-duration (${deadline.seconds} s)`,
          ),
        ),
      Math.max(0, deadline.at - performance.now()),
    );
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}
