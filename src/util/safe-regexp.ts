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
  const native = backtracksLittle(pattern) ? nativeRegExp(pattern) : undefined;
  // Most patterns are of that kind (^note-[0-9]{1,9}$): JavaScript's own engine runs them with
  // JSON Schema's exact semantics, and the ~18 ms of loading RE2 and compiling are saved — on
  // short values, where even the one varying quantifier costs at most n² steps.
  const compiled: RegExpLike = native
    ? {
        test: (text) => (text.length <= NATIVE_MAX_LENGTH ? native.test(text) : onRe2(pattern).test(text)),
        toString: () => `/${pattern}/`,
      }
    : onRe2(pattern);
  if (cache.size > MAX_CACHED) cache.clear();
  cache.set(pattern, compiled);
  return compiled;
}

/** The longest value a pattern that backtracks little is run on natively (n² steps at most: 10⁶). */
const NATIVE_MAX_LENGTH = 1_000;

function nativeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

/** The pattern on RE2, compiled once (RE2 loaded the first time). */
function onRe2(pattern: string): RegExpLike {
  let re = re2Compiled.get(pattern);
  if (re) return re;
  try {
    const compiled = RE2().compile(RE2().translateRegExp(pattern));
    re = { test: (text) => compiled.test(text), toString: () => `/${pattern}/` };
  } catch {
    // Lookaround and backreferences have no linear-time form: such a pattern is not applied
    // (every value passes it) rather than run on a backtracking engine.
    unsupported.add(pattern);
    re = { test: () => true, toString: () => `/${pattern}/ (not applied)` };
  }
  if (re2Compiled.size > MAX_CACHED) re2Compiled.clear();
  re2Compiled.set(pattern, re);
  return re;
}
const re2Compiled = new Map<string, RegExpLike>();

/**
 * Whether a backtracking engine cannot blow up on `pattern`: no group, alternation,
 * backreference, lookaround, \p or \c (RE2 runs all the rest too), and at most one quantifier
 * that repeats a varying number of times, each on a single character or class.
 */
export function backtracksLittle(pattern: string): boolean {
  let varying = 0;
  let atom = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '(' || c === ')' || c === '|') return false;
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined || /[1-9kpPc]/.test(next)) return false;
      i++;
      atom = true;
    } else if (c === '[') {
      let j = i + 1;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      if (j >= pattern.length || /\\[1-9kpPc]/.test(pattern.slice(i, j))) return false;
      i = j;
      atom = true;
    } else if (c === '*' || c === '+' || c === '?' || c === '{') {
      let fixed = false;
      if (c === '{') {
        const bound = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
        if (!bound) return false;
        fixed = bound[2] === undefined || bound[3] === bound[1];
        i += bound[0].length - 1;
      }
      if (!atom) return false;
      if (!fixed) varying++;
      if (pattern[i + 1] === '?') i++;
      atom = false;
    } else {
      atom = c !== '^' && c !== '$';
    }
  }
  return varying <= 1;
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
