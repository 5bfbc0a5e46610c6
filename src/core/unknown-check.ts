// One near-miss rule for every place a check id is given (--only, --skip, --rule, the config's
// `rules`, `explain`): the closest ids by edit distance (or those the word begins), never the whole list.
import { distance } from '../util/distance.js';
import { TOOL_NAME } from '../util/version.js';

/** Up to three known ids close to `id`: a few edits away, or beginning with it. */
export function nearIds(id: string, known: readonly string[]): string[] {
  return known
    .map((k) => ({ k, d: distance(k.toLowerCase(), id.toLowerCase()) }))
    .filter((c) => c.d <= Math.max(3, Math.floor(id.length / 3)) || (id.length >= 3 && c.k.startsWith(id)))
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map((c) => c.k);
}

/**
 * The one line an unknown id gets: what was not found, the near ids, and where the list is.
 * `prefixes`: where a prefix selects (--only, --skip), how one is written, when nothing is near.
 */
export function unknownCheck(id: string, known: readonly string[], prefixes = false): string {
  const near = nearIds(id, known);
  const hint = near.length
    ? ` (did you mean ${near.map((k) => `'${k}'`).join(' or ')}?)`
    : prefixes
      ? " (a prefix ends with '-', e.g. pd-, or '/' for a plugin's, e.g. acme/)"
      : '';
  return `no check is called '${id}'${hint}; run '${TOOL_NAME} list-checks' to see them all`;
}
