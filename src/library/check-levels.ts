// Levels are the user's, for every check (ours and a plugin's alike), as ESLint's `rules`:
// `"rules": { "<id>": "off" | "warn" | "error" }` in the config file, `--rule id=level` on the command
// line. `off` leaves the check out of the run's work altogether; `warn` and `error` set the level of
// its failures over its spec's word. An unknown id is one line, with the nearest known id.
import { InputError } from '../core/input-error.js';
import type { CheckDefinition } from '../core/check.js';
import { closest } from '../util/distance.js';
import { unknownCheck } from '../core/unknown-check.js';

/** What a user sets a check to. */
export type RuleLevel = 'off' | 'warn' | 'error';

export const RULE_LEVELS: readonly RuleLevel[] = ['off', 'warn', 'error'];

/** A check's setting: its level, or its level and options (as ESLint's rules). */
export type RuleSetting = RuleLevel | [RuleLevel, Record<string, unknown>];

/**
 * The checks with the user's levels applied: `off` ones left out, the others with their failures'
 * level set. `known`: every check id the user may name here (live and lint, ours and the plugins').
 */
export function withLevels<T extends Pick<CheckDefinition<never>, 'id' | 'severity' | 'options' | 'defaults'>>(
  checks: readonly T[],
  rules: Readonly<Record<string, unknown>> | undefined,
  known: readonly string[],
): T[] {
  if (!rules || !Object.keys(rules).length) return [...checks];
  for (const [id, setting] of Object.entries(rules)) {
    const level = Array.isArray(setting) ? (setting[0] as unknown) : setting;
    if (
      Array.isArray(setting) &&
      (setting.length < 1 ||
        setting.length > 2 ||
        (setting.length === 2 && (typeof setting[1] !== 'object' || setting[1] === null || Array.isArray(setting[1]))))
    )
      throw new InputError(
        `rules: '${id}' is set to ${JSON.stringify(setting)}; give a level, or [level, { options }] (as ESLint's rules)`,
      );
    if (!known.includes(id)) {
      throw new InputError(`rules: ${unknownCheck(id, known)}`);
    }
    if (!RULE_LEVELS.includes(level as RuleLevel))
      throw new InputError(`rules: '${id}' is set to ${JSON.stringify(level)}; a check's level is off, warn or error`);
  }
  const settingOf = (id: string) => {
    const setting = rules[id];
    if (setting === undefined) return undefined;
    return Array.isArray(setting)
      ? { level: setting[0] as RuleLevel, options: setting[1] as Record<string, unknown> | undefined }
      : { level: setting as RuleLevel, options: undefined };
  };
  for (const check of checks) {
    const options = settingOf(check.id)?.options;
    if (options) optionsProblem(check, options);
  }
  return checks
    .filter((check) => settingOf(check.id)?.level !== 'off')
    .map((check) => {
      const setting = settingOf(check.id);
      if (setting === undefined) return check;
      return Object.freeze({
        ...check,
        severity: setting.level === 'warn' ? 'warning' : 'error',
        ...(setting.options ? { options: Object.freeze({ ...setting.options }) } : {}),
      });
    });
}

/** Throws for options a check does not take, or of another type than its default. */
function optionsProblem(
  check: Pick<CheckDefinition<never>, 'id' | 'defaults'>,
  options: Record<string, unknown>,
): void {
  const known = Object.keys(check.defaults ?? {});
  for (const [name, value] of Object.entries(options)) {
    if (!known.includes(name)) {
      const near = closest(name, known);
      throw new InputError(
        known.length
          ? `rules: '${check.id}' has no option '${name}'${near !== undefined ? ` (did you mean '${near}'?)` : ''}; its options: ${known.join(', ')}`
          : `rules: '${check.id}' takes no options; set its level alone ("off", "warn" or "error")`,
      );
    }
    const expected = typeof check.defaults![name];
    if (typeof value !== expected)
      throw new InputError(
        `rules: '${check.id}' option '${name}' is ${JSON.stringify(value)}; it takes a ${expected} (default ${JSON.stringify(check.defaults![name])})`,
      );
  }
}

/** `--rule id=level` as given on the command line, as the config's `rules` record. */
export function parseRules(given: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of given) {
    const at = item.lastIndexOf('=');
    if (at <= 0)
      throw new InputError(`--rule '${item}': give it as <check-id>=off|warn|error (e.g. --rule pd-token-savings=off)`);
    const setting = item.slice(at + 1).trim();
    // [level, { options }] as JSON (what a config file's rules say); else the level alone.
    if (setting.startsWith('[')) {
      try {
        out[item.slice(0, at).trim()] = JSON.parse(setting) as unknown;
        continue;
      } catch {
        throw new InputError(
          `--rule '${item}': the setting after = is not JSON; give a level, or ["level", { options }]`,
        );
      }
    }
    out[item.slice(0, at).trim()] = setting;
  }
  return out;
}
