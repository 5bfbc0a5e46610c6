import { InputError } from '../core/input-error.js';

/** A mistake in how the checker was invoked: one line to the user, exit code 2. */
export class UsageError extends InputError {
  override name = 'UsageError';
}
