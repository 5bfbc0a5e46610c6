import type { RuleProblem } from '../core/findings.js';
import type { Messages } from '../core/messages.js';
import { isPlainObject } from '../protocol/payload.js';
import { schemaProblems } from './schema-problems.js';

/**
 * What makes dashdash metadata right (v0.2.0): the live checks of initialize, tools and resources
 * and the lint of saved metadata run these functions and report the same codes.
 */
export const DASHDASH_MESSAGES = {
  'spec-version-too-old': {
    message: 'dashdash specVersion {version} is older than 0.2.0, which this metadata must be at least (§3.1.2).',
    hint: 'Update the metadata to dashdash 0.2.0 and set "specVersion": "0.2.0".',
  },
  'spec-version-newer': 'dashdash specVersion {version} is newer than the 0.2.0 this checker knows; checked as 0.2.0.',
  'recommended-field-missing': {
    message: "dashdash has no '{field}' (RECOMMENDED, §3.1.2).",
    hint: 'Add "{field}" to the dashdash object.',
  },
  'no-trigger-phrases': {
    message:
      'identity.description says what the server is but not when to use it: it has no trigger phrase (§3.1.2 MUST), e.g. "Use when the user asks to …".',
    hint: 'End the description with when to use the server: "Use when the user asks to …".',
  },
  'alternatives-not-mentioned': {
    message:
      'alternativeAccess names {urls}, which the ai_help markdown an agent reads never mentions (§4.2: servers SHOULD cross-reference their CLI and web alternatives).',
    hint: 'Add a section to ai_help that links the alternatives, e.g. "## Other ways in" with the CLI and web URLs.',
  },
  'reverse-method-unknown': {
    message: "reverseMethod '{method}' is not a tool of this server.",
    hint: 'Name the tool that undoes this one, exactly as tools/list shows it.',
  },
  'cli-placeholder-unknown': {
    message: 'cliEquivalent uses {placeholders}, which are not parameters of the tool (parameters: {parameters}).',
    hint: 'Use placeholders in braces named after the inputSchema properties, e.g. {path}.',
  },
} as const satisfies Messages;

/** `0.2.0` → [0, 2, 0]; undefined when it is not a version (the schema says so). */
function version(text: string): [number, number, number] | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/**
 * A trigger phrase: the "when" of §3.1.2, as the spec's own examples word it ("Use when user asks
 * to …"), or quoted phrases a user would say.
 */
const TRIGGER =
  /\b(use (it |this( server| tool)? |me )?(when|whenever|for|to|if)|when(ever)? (you|the user|a user|users|someone|asked)|if (you|the user) (need|want|ask)s?|triggers?)\b|["“][^"”]{3,}["”]/i;

const RECOMMENDED_SERVER_FIELDS = ['install', 'requires', 'rateLimit', 'homepage'] as const;

/** The dashdash object of an initialize result (§3.1.2). `base` is where it sits in its document. */
export function dashdashServerProblems(dd: unknown, base = ''): RuleProblem[] {
  const problems = schemaProblems('dashdash-server', dd, { base });
  if (!isPlainObject(dd)) return problems;
  const v = typeof dd.specVersion === 'string' ? version(dd.specVersion) : undefined;
  if (v && v[0] === 0 && v[1] < 2)
    problems.push({
      code: 'spec-version-too-old',
      pointer: '/specVersion',
      args: { version: dd.specVersion },
      level: 'fail',
    });
  else if (v && v[0] > 0)
    problems.push({
      code: 'spec-version-newer',
      pointer: '/specVersion',
      args: { version: dd.specVersion },
      level: 'info',
    });
  const description = isPlainObject(dd.identity) ? dd.identity.description : undefined;
  if (typeof description === 'string' && description.trim() && !TRIGGER.test(description)) {
    problems.push({ code: 'no-trigger-phrases', pointer: '/identity/description', args: {}, level: 'fail' });
  }
  for (const field of RECOMMENDED_SERVER_FIELDS) {
    if (!(field in dd))
      problems.push({ code: 'recommended-field-missing', pointer: '', args: { field }, level: 'warn' });
  }
  return problems;
}

/**
 * A tool's dashdash object (§3.2.2). `toolNames` (the server's tools) and `parameters` (the
 * tool's inputSchema properties) are known live, and in a saved tools/list.
 */
export function dashdashToolProblems(
  dd: unknown,
  context: { toolNames?: readonly string[]; parameters?: readonly string[]; base?: string } = {},
): RuleProblem[] {
  const problems = schemaProblems('dashdash-tool', dd, { base: context.base });
  if (!isPlainObject(dd)) return problems;
  if (context.toolNames && typeof dd.reverseMethod === 'string' && !context.toolNames.includes(dd.reverseMethod)) {
    problems.push({
      code: 'reverse-method-unknown',
      pointer: '/reverseMethod',
      args: { method: dd.reverseMethod },
      level: 'fail',
    });
  }
  if (context.parameters && typeof dd.cliEquivalent === 'string') {
    const params = context.parameters;
    const unknown = [...dd.cliEquivalent.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]).filter((p) => !params.includes(p));
    if (unknown.length) {
      problems.push({
        code: 'cli-placeholder-unknown',
        pointer: '/cliEquivalent',
        args: { placeholders: unknown, parameters: params.length ? [...params] : 'none' },
        level: 'fail',
      });
    }
  }
  return problems;
}

/** A resource's dashdash object (§3.4.2). */
export function dashdashResourceProblems(dd: unknown, base = ''): RuleProblem[] {
  return schemaProblems('dashdash-resource', dd, { base });
}

/**
 * §4.2: the alternatives that alternativeAccess names (CLI, API, web) are cross-referenced in what
 * an agent reads about the server, its ai_help markdown.
 */
export function crossReferenceProblems(dd: unknown, markdown: string): RuleProblem[] {
  const access = isPlainObject(dd) && isPlainObject(dd.alternativeAccess) ? dd.alternativeAccess : {};
  const named = ['cliUrl', 'apiUrl', 'webUrl']
    .map((k) => access[k])
    .filter((u): u is string => typeof u === 'string' && u.length > 0);
  const missing = named.filter((url) => !markdown.includes(url) && !markdown.includes(url.replace(/\/+$/, '')));
  return missing.length
    ? [{ code: 'alternatives-not-mentioned', pointer: '', args: { urls: missing }, level: 'warn' }]
    : [];
}
