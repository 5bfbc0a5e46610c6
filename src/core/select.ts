import { InputError } from './input-error.js';
import { unknownCheck } from './unknown-check.js';

/** Whether a check id is picked by a selector: the id itself, or a prefix ending in '-' (pd-) or '/' (a plugin's: acme/). */
function matches(id: string, selector: string): boolean {
  return id === selector || ((selector.endsWith('-') || selector.endsWith('/')) && id.startsWith(selector));
}

/** The checks `only`/`skip` leave; a selector that matches no check, or leaves none, is an InputError. */
export function selectChecks<T extends { id: string }>(
  all: readonly T[],
  onlyGiven: readonly string[] = [],
  skipGiven: readonly string[] = [],
): T[] {
  // `--skip a,b` and `--skip a b` mean the same (users write both).
  const only = commaSeparated(onlyGiven);
  const skip = commaSeparated(skipGiven);
  for (const selector of [...only, ...skip]) {
    if (!all.some((c) => matches(c.id, selector))) {
      throw new InputError(
        unknownCheck(
          selector,
          all.map((c) => c.id),
          true,
        ),
      );
    }
  }
  const chosen = all.filter(
    (c) => (!only.length || only.some((s) => matches(c.id, s))) && !skip.some((s) => matches(c.id, s)),
  );
  if (!chosen.length) throw new InputError('--only and --skip leave no check to run');
  return chosen;
}

function commaSeparated(selectors: readonly string[]): string[] {
  return selectors
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}
