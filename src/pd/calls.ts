import type { Discovery } from '../discovery.js';
import type { Exchange, JsonObject } from '../target/types.js';
import { findSignalledError, type SignalledError } from './errors.js';
import { isPlainObject } from './payload.js';

export const TOOL_DESCRIPTION_REQUIRED = 'TOOL_DESCRIPTION_REQUIRED';
export const MISSING_TOOL_SELECTION = 'MISSING_TOOL_SELECTION';

/** Arguments for a real call: the first example's input from the full description, else `{}`. */
export function callArguments(discovery: Discovery, name: string): JsonObject {
  const examples = discovery.fullDescriptions.get(name)?.examples;
  if (Array.isArray(examples)) {
    const first = examples.find((e) => isPlainObject(e) && isPlainObject(e.input)) as JsonObject | undefined;
    if (first) return first.input as JsonObject;
  }
  return {};
}

/** Read-only by the tool's own word: `annotations.readOnlyHint`, or dashdash `operationType: read`. */
export function isReadOnly(discovery: Discovery, name: string): boolean {
  const entry = discovery.tools.find((t) => t.name === name);
  const annotations = entry?.annotations;
  if (isPlainObject(annotations) && annotations.readOnlyHint === true) return true;
  for (const source of [entry, discovery.fullDescriptions.get(name)]) {
    const dd = source?.dashdash;
    if (isPlainObject(dd) && dd.operationType === 'read') return true;
  }
  return false;
}

/** The tools a check may call: all of them, or only read-only ones under `--safe-calls`. */
export function callableTools(discovery: Discovery, safeCalls: boolean): string[] {
  return safeCalls ? discovery.toolNames.filter((n) => isReadOnly(discovery, n)) : [...discovery.toolNames];
}

/** Prefers read-only tools where a check needs just a few. */
export function preferReadOnly(discovery: Discovery, names: string[]): string[] {
  return [...names].sort((a, b) => Number(isReadOnly(discovery, b)) - Number(isReadOnly(discovery, a)));
}

export type CallOutcome =
  | { kind: 'refused'; signal: SignalledError }
  | { kind: 'authorized' }
  | { kind: 'no-response'; note: string };

/**
 * "Authorized" means not refused with TOOL_DESCRIPTION_REQUIRED: a tool may still reject its
 * arguments. A refusal in any form counts here (even the code only in text); whether the form is
 * acceptable is pd-description-required's business.
 */
export function classifyCall(ex: Exchange): CallOutcome {
  if (ex.noResponse) return { kind: 'no-response', note: ex.note ?? ex.noResponse };
  const signal = findSignalledError(ex, TOOL_DESCRIPTION_REQUIRED);
  return signal ? { kind: 'refused', signal } : { kind: 'authorized' };
}
