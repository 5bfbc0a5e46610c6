import { createRequire } from 'node:module';
import type { RE2JS as RE2JSType } from 're2js';

/** re2js is loaded the first time a pattern from outside is run (required: its CommonJS build). */
let re2: typeof RE2JSType | undefined;
function RE2(): typeof RE2JSType {
  re2 ??= (createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JSType }).RE2JS;
  return re2;
}

export interface RegExpLike {
  test(text: string): boolean;
  /** ajv keys its compiled patterns by this: it must differ per pattern, as RegExp's does. */
  toString(): string;
}

/**
 * Patterns written by others (a server's inputSchema, a linted file) run on RE2, whose matching
 * time is linear in the input: a catastrophic pattern such as ^(a+)+$ cannot freeze the checker,
 * where JavaScript's backtracking engine would block the event loop and every timeout with it.
 */
export function safeRegExp(pattern: string): RegExpLike {
  const cached = cache.get(pattern);
  if (cached) return cached;
  let compiled: RegExpLike;
  try {
    const re = RE2().compile(RE2().translateRegExp(pattern));
    compiled = { test: (text) => re.test(text), toString: () => `/${pattern}/` };
  } catch {
    // Lookaround and backreferences have no linear-time form: such a pattern is not applied
    // (every value passes it) rather than run on a backtracking engine.
    unsupported.add(pattern);
    compiled = { test: () => true, toString: () => `/${pattern}/ (not applied)` };
  }
  if (cache.size > MAX_CACHED) cache.clear();
  cache.set(pattern, compiled);
  return compiled;
}

/** ajv's `code.regExp` option: the same engine, with the name ajv's standalone code would use. */
export const ajvRegExpEngine = Object.assign((pattern: string) => safeRegExp(pattern), { code: 'safeRegExp' });

/** Whether a pattern could not be applied (RE2 does not support its syntax). */
export function isUnsupportedPattern(pattern: string): boolean {
  safeRegExp(pattern);
  return unsupported.has(pattern);
}

const MAX_CACHED = 10_000;
const cache = new Map<string, RegExpLike>();
const unsupported = new Set<string>();
