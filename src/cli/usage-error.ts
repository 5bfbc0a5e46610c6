/** A mistake in how the checker was invoked: one line to the user, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
