import { asText, clip, formatNumber, listing } from '../util/text.js';

/**
 * Findings are data: a code and its args. Their text comes from a template, rendered here and
 * only here, so wording can change without touching what a finding is (baselines, SARIF rules
 * and tests use codes and args, never text).
 */

/** A message template, with the fix hint that goes with it. `{name}` is replaced by args.name. */
export type MessageSpec = string | { message: string; hint?: string };
export type Messages = Readonly<Record<string, MessageSpec>>;

/** Args of a finding: JSON data. */
export type Args = Record<string, unknown>;

const CODE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** An arg longer than this is clipped in the text (the args keep it whole). */
const MAX_ARG_CHARS = 300;

export function isCode(code: string): boolean {
  return CODE.test(code);
}

/**
 * `{name}` → the arg as text: a string as it is (clipped), a number with thousands separators, a
 * list as "'a', 'b' and 3 more", anything else as JSON. `{count|tool}` → "1 tool" / "3 tools".
 * A placeholder without its arg stays visible, so a missing arg shows rather than vanishes.
 */
export function renderTemplate(template: string, args: Args): string {
  return template.replace(
    /\{([A-Za-z_][\w]*)(?:\|([^{}|]+)(?:\|([^{}|]+))?)?\}/g,
    (whole, name: string, one?: string, many?: string) => {
      if (!(name in args)) return whole;
      const value = args[name];
      if (one !== undefined) {
        const n = Number(value);
        return `${formatNumber(n)} ${n === 1 ? one : (many ?? `${one}s`)}`;
      }
      return formatArg(value);
    },
  );
}

export function formatArg(value: unknown): string {
  if (typeof value === 'string') return clip(value, MAX_ARG_CHARS);
  if (typeof value === 'number') return formatNumber(value);
  if (Array.isArray(value)) return listing(value.map((v) => clip(asText(v), 80)));
  return clip(asText(value), MAX_ARG_CHARS);
}

export function templateOf(spec: MessageSpec): string {
  return typeof spec === 'string' ? spec : spec.message;
}

export function hintOf(spec: MessageSpec): string | undefined {
  return typeof spec === 'string' ? undefined : spec.hint;
}

/** The placeholder names of a template (for tests: every arg a message uses is given). */
export function placeholders(template: string): string[] {
  return [...template.matchAll(/\{([A-Za-z_][\w]*)(?:\|[^{}]*)?\}/g)].map((m) => m[1]);
}
