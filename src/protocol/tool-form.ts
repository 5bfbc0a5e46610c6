// The tool form of the tool_descriptions resource (this project's convention, DESIGN "The tool form
// of the resource"): one listed tool that takes the same selection and answers what a read answers,
// for clients whose model calls tools but never reads a resource. A server marks it in its `_meta`
// under MIRRORS_KEY (a key of this project's own, by MCP's rules for `_meta` names), whose value is
// the URI of the resource it mirrors. Only the mark makes a tool the tool form: a tool of the same
// shape without it is an ordinary tool.
import type { JsonObject } from '../transport/types.js';
import { isPlainObject } from './payload.js';

/** The name the reference server and `serve` give it (a server may give it any name: the mark counts). */
export const DESCRIPTIONS_TOOL = 'get_tool_descriptions';
export const MIRRORS_KEY = 'io.github.mcp-pd-check/mirrors-resource';

/**
 * Whether a tools/list entry is marked as the tool form. Its entry is the one that says its
 * parameter: a client that only calls tools must call it before anything is fetched (criterion 1's
 * rule on listed schemas does not apply to it).
 */
export function isToolForm(entry: unknown): boolean {
  return isPlainObject(entry) && isPlainObject(entry._meta) && typeof entry._meta[MIRRORS_KEY] === 'string';
}

/** The tool a tools/list marks as the tool form, and the resource it says it mirrors. */
export function toolFormOf(tools: readonly JsonObject[]): { name: string; mirrors: string } | undefined {
  for (const tool of tools) {
    const mirrors = isPlainObject(tool._meta) ? tool._meta[MIRRORS_KEY] : undefined;
    if (typeof tool.name === 'string' && typeof mirrors === 'string') return { name: tool.name, mirrors };
  }
  return undefined;
}

/** The names a call of the tool form selects, as sent (undefined when it names none: a missing selection). */
export function selectedByCall(args: unknown): string[] | undefined {
  const tools = isPlainObject(args) ? args.tools : undefined;
  const raw = Array.isArray(tools)
    ? tools.filter((t): t is string => typeof t === 'string')
    : typeof tools === 'string'
      ? tools.split(',')
      : [];
  const names = raw.filter((n) => n.trim() !== '');
  return names.length ? names : undefined;
}
