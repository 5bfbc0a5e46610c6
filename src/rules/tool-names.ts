import type { RuleProblem } from '../core/findings.js';
import type { Messages } from '../core/messages.js';

/** MCP tool-name rules (tools spec, "Tool Names"): SHOULD be 1–128 characters of A-Z a-z 0-9 _ - . */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

export const TOOL_NAME_MESSAGES = {
  'tool-without-name': { message: 'Tool entry {index} has no string name.', hint: 'Give every tool a name.' },
  'name-invalid': {
    message: "The tool name '{name}' {problem} (MCP tool-name rules).",
    hint: 'Rename the tool, e.g. to snake_case letters, digits, _, - and .',
  },
  'name-duplicate': {
    message: "The tool '{name}' is listed twice (entries {first} and {second}); names must identify one tool.",
    hint: 'List each tool once.',
  },
  'name-case-collision': {
    message:
      "The tools '{other}' and '{name}' differ only in case; clients that compare names case-insensitively will confuse them.",
    hint: 'Rename one of them.',
  },
} as const satisfies Messages;

/** Why a name breaks the rules, in words; undefined when it follows them. */
export function toolNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.length > 128) return `is ${name.length} characters long (at most 128)`;
  const bad = [...new Set([...name].filter((c) => !/[A-Za-z0-9_.-]/.test(c)))];
  if (bad.length)
    return `contains ${bad.map((c) => (c === ' ' ? 'a space' : JSON.stringify(c))).join(', ')}; only A-Z, a-z, 0-9, _, - and . are allowed`;
  return undefined;
}

/** One name on its own. */
export function nameProblems(name: string, pointer = '/name'): RuleProblem[] {
  const problem = toolNameProblem(name);
  return problem ? [{ code: 'name-invalid', pointer, args: { name, problem }, level: 'warn' }] : [];
}

/**
 * A whole list of tools (tools/list entries): every name valid, listed once, not different from
 * another only in case. Pointers are `/<index>` (plus `/name`). The rules are SHOULDs: warnings,
 * but an entry without a name fails.
 */
export function toolListNameProblems(tools: readonly unknown[]): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const seen = new Map<string, number>();
  const lower = new Map<string, string>();
  tools.forEach((tool, index) => {
    const name = typeof tool === 'object' && tool !== null ? (tool as { name?: unknown }).name : undefined;
    if (typeof name !== 'string') {
      problems.push({ code: 'tool-without-name', pointer: `/${index}`, args: { index }, level: 'fail' });
      return;
    }
    problems.push(...nameProblems(name, `/${index}/name`));
    const first = seen.get(name);
    if (first !== undefined) {
      problems.push({
        code: 'name-duplicate',
        pointer: `/${index}/name`,
        args: { name, first, second: index },
        level: 'warn',
      });
      return;
    }
    seen.set(name, index);
    const other = lower.get(name.toLowerCase());
    if (other !== undefined)
      problems.push({ code: 'name-case-collision', pointer: `/${index}/name`, args: { name, other }, level: 'warn' });
    else lower.set(name.toLowerCase(), name);
  });
  return problems;
}
