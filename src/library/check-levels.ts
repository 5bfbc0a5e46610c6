// Levels are the user's, for every check (ours and a plugin's alike), as ESLint's `rules`:
// `"rules": { "<id>": "off" | "warn" | "error" }` in the config file, `--rule id=level` on the command
// line. `off` leaves the check out of the run's work altogether; `warn` and `error` set the level of
// its failures over its spec's word. An unknown id is one line, with the nearest known id.
import { InputError } from '../core/input-error.js';
import type { CheckDefinition } from '../core/check.js';
import { closest } from '../util/distance.js';

/** What a user sets a check to. */
export type RuleLevel = 'off' | 'warn' | 'error';

export const RULE_LEVELS: readonly RuleLevel[] = ['off', 'warn', 'error'];

/**
 * The checks with the user's levels applied: `off` ones left out, the others with their failures'
 * level set. `known`: every check id the user may name here (live and lint, ours and the plugins').
 */
export function withLevels<T extends Pick<CheckDefinition<never>, 'id' | 'severity'>>(
  checks: readonly T[],
  rules: Readonly<Record<string, unknown>> | undefined,
  known: readonly string[],
): T[] {
  if (!rules || !Object.keys(rules).length) return [...checks];
  for (const [id, level] of Object.entries(rules)) {
    if (!known.includes(id)) {
      const near = closest(id, known);
      throw new InputError(
        `rules: no check is called '${id}'${near !== undefined ? ` (did you mean '${near}'?)` : ''}; run 'mcp-pd-check list-checks' to see them all`,
      );
    }
    if (!RULE_LEVELS.includes(level as RuleLevel))
      throw new InputError(`rules: '${id}' is set to ${JSON.stringify(level)}; a check's level is off, warn or error`);
  }
  return checks
    .filter((check) => rules[check.id] !== 'off')
    .map((check) => {
      const level = rules[check.id] as RuleLevel | undefined;
      return level === undefined
        ? check
        : Object.freeze({ ...check, severity: level === 'warn' ? 'warning' : 'error' });
    });
}

/** `--rule id=level` as given on the command line, as the config's `rules` record. */
export function parseRules(given: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of given) {
    const at = item.lastIndexOf('=');
    if (at <= 0)
      throw new InputError(`--rule '${item}': give it as <check-id>=off|warn|error (e.g. --rule pd-token-savings=off)`);
    out[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return out;
}
