/**
 * Input the caller got wrong (a path that does not exist, a pattern that matches nothing): the
 * core throws it with one line that says what and how to fix it; the CLI turns it into exit 2.
 */
export class InputError extends Error {
  override name = 'InputError';
}
