import type { RuleProblem } from '../core/findings.js';
import type { Messages } from '../core/messages.js';
import { clip, sanitizeLine } from '../util/text.js';
import { sentences, words } from '../util/words.js';

/**
 * What makes a tools/list description minimal (PD §3.1): enough to choose the tool by, nothing of
 * how to call it. One rule for the live check (pd-minimal-descriptions), the lint of a
 * tools-list.minimal.json, and the descriptions `init` writes (`minimalFrom`).
 */

/** Text that belongs in the full description, not in tools/list (§3.1: no examples, usage, parameter docs). */
const DETAIL_PATTERNS: Array<[RegExp, string]> = [
  [/\bexamples?\s*[:：]/i, 'an example'],
  [/\b(usage|how to use)\s*[:：]/i, 'usage instructions'],
  [/```/, 'a code block'],
  [/\{\s*"[^"\n]{1,40}"\s*:/, 'a JSON example'],
  [/\b(parameters?|params|arguments?|args|inputs?)\s*[:：]/i, 'parameter documentation'],
  [/^\s*[-*•]\s*`?[\w.]+`?\s*[(:]\s*(string|number|integer|boolean|array|object|bool|int|str)\b/im, 'a parameter list'],
  [/<\/?(examples?|usage|parameters?|params|args|notes?)\b[^>]*>/i, 'a tagged block of examples or usage'],
];

/**
 * What is HOW to call a tool, not WHAT it does (the seeds' guide): argument formats, examples of
 * values, constraints on arguments, patterns they must match. The rule quality/listed-how finds them
 * in a listed description (through the plugin API), and `minimalFrom` leaves the sentences that hold
 * them out of the listed descriptions init writes: one list, for both.
 */
export const HOW_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(YYYY-MM-DD|ISO[- ]?8601|RFC ?\d{3,4}|epoch (milli)?seconds)\b/i, 'an argument format'],
  [/\b(e\.g\.|for example|for instance)/i, 'an example'],
  [/\bmust be (a|an|one of|between|at (most|least))\b/i, 'a constraint on an argument'],
  [/\b(regex|regular expression|glob(-style)? patterns?)\b/i, 'a pattern an argument must match'],
  [/\bone of\s*[:(["'`]/i, 'the values an argument takes'],
];

/** Fewer words than this cannot tell an LLM what the tool is for. */
export const MIN_WORDS = 3;
/** What init writes at most: one or two sentences. */
const INIT_MAX_CHARS = 200;

export const MINIMAL_DESCRIPTION_MESSAGES = {
  'no-description': {
    message: "Tool '{tool}' has no description in tools/list; an LLM cannot choose it without one.",
    hint: 'Give every tool a one-sentence description of what it does and when to use it.',
  },
  'too-few-words': {
    message: 'Tool \'{tool}\' has a {words}-word description ("{text}"): too little to select the tool by.',
    hint: 'Say in one sentence what the tool does and when it is the right choice.',
  },
  'details-in-description': {
    message:
      'Tool \'{tool}\': the tools/list description contains {what} ("{text}"); §3.1 keeps examples, usage and parameter details out of stage 1.',
    hint: "Move examples, usage notes and parameter details to the tool's full description in tool_descriptions.",
  },
} as const satisfies Messages;

/** The problems of one tools/list description (pointer: the entry's `/description`). */
export function minimalDescriptionProblems(tool: string, description: unknown): RuleProblem[] {
  const at = '/description';
  if (typeof description !== 'string' || description.trim() === '')
    return [{ code: 'no-description', pointer: at, args: { tool }, level: 'fail' }];
  const problems: RuleProblem[] = [];
  // Words as a segmenter counts them: a Japanese sentence is many words, not one.
  const count = words(description, MIN_WORDS).length;
  if (count < MIN_WORDS)
    problems.push({
      code: 'too-few-words',
      pointer: at,
      args: { tool, words: count, text: clip(sanitizeLine(description), 60) },
      level: 'fail',
    });
  for (const [pattern, what] of DETAIL_PATTERNS) {
    const match = pattern.exec(description);
    if (match)
      problems.push({
        code: 'details-in-description',
        pointer: at,
        args: { tool, what, text: clip(sanitizeLine(match[0].trim()), 60) },
        level: 'fail',
      });
  }
  // Its length is quality/listed-too-long's (a bound in tokens, the user's to set): one rule, not two.
  return problems;
}

/**
 * A minimal description made from a full one: its prose only (code blocks, tagged blocks of
 * examples or usage, and lines that introduce examples, usage or parameters left out), the first
 * `count` sentences — one more when they are too short to choose by —, at most 200 characters,
 * cut at a word.
 * Empty when the text has no prose; it then passes `minimalDescriptionProblems` only as well as
 * the server's own words allow (a review mark is the caller's to add).
 */
export function minimalFrom(text: string, count = 1): string {
  const prose = proseOf(text);
  // A sentence that says HOW to call the tool ends the listed description before it (it belongs to the full one).
  const said = sentences(prose);
  const how = said.findIndex((x, i) => i > 0 && HOW_PATTERNS.some(([pattern]) => pattern.test(x)));
  if (how > 0) said.length = how;
  let out = said.slice(0, count).join(' ');
  if (out && words(out).length < MIN_WORDS && said[count]) out = `${out} ${said[count]}`;
  out = out.replace(/\s+/g, ' ').trim();
  // Anything the rule calls a detail ends the description where it starts.
  for (const [pattern] of DETAIL_PATTERNS) {
    const match = pattern.exec(out);
    if (match && match.index > 0)
      out = out
        .slice(0, match.index)
        .replace(/[\s,;:(–-]+$/, '')
        .trim();
    else if (match) out = '';
  }
  if (out.length > INIT_MAX_CHARS) {
    const cut = out.slice(0, INIT_MAX_CHARS - 1);
    out = `${cut.slice(0, Math.max(cut.lastIndexOf(' '), INIT_MAX_CHARS / 2)).replace(/[\s,;:]+$/, '')}…`;
  }
  return out;
}

/**
 * The prose of a description: without code blocks, tagged blocks, and the sections of examples, usage or parameters.
 */
export function proseOf(text: string): string {
  const kept: string[] = [];
  const stripped = text
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/<([A-Za-z][\w-]*)\b[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<\/?[A-Za-z][\w-]*\b[^>]*>/g, ' ');
  for (const line of stripped.split('\n')) {
    // A heading or lead-in of examples, usage or parameters ends the prose.
    if (
      /^\s*(#+\s*)?(examples?|usage|how to use|parameters?|params|arguments?|args|inputs?|returns?|notes?)\b\s*[:：]?\s*$/i.test(
        line,
      )
    )
      break;
    if (/^\s*(#+\s*)?(examples?|usage|parameters?|params|arguments?|args)\s*[:：]/i.test(line)) break;
    kept.push(line);
  }
  return kept.join('\n').replace(/\s+/g, ' ').trim();
}

/**
 * The tools/list entry a progressive-disclosure server would list for a tool: its name, a minimal
 * description made by the rule above and an open object schema (§3.1). The token estimate of a
 * server without the resource.
 */
export function minimalEntry(tool: Record<string, unknown>): Record<string, unknown> {
  const description = typeof tool.description === 'string' ? minimalFrom(tool.description) : '';
  return { name: tool.name, description, inputSchema: { type: 'object', additionalProperties: true } };
}

/**
 * The tools/list entry under progressive disclosure, as init writes it and serve lists it: the
 * minimal entry, plus what clients choose and call by — title, annotations (approval before a
 * destructive call) and execution (a tool callable as a task, or only as one).
 */
export function minimalListing(tool: Record<string, unknown>): Record<string, unknown> {
  const object = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  return {
    ...minimalEntry(tool),
    ...(typeof tool.title === 'string' ? { title: tool.title } : {}),
    ...(object(tool.annotations) ? { annotations: tool.annotations } : {}),
    // Forbidden (the default) says nothing a client needs.
    ...(object(tool.execution) && (tool.execution as { taskSupport?: unknown }).taskSupport !== 'forbidden'
      ? { execution: tool.execution }
      : {}),
  };
}
