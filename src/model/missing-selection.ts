import { MISSING_TOOL_SELECTION } from '../protocol/calls.js';
import { anySignalledCode, findSignalledError, invalidErrorCode } from '../protocol/errors.js';
import { isDescriptionEntry } from '../protocol/fetch.js';
import { isPlainObject, resourceJson } from '../protocol/payload.js';
import type { Exchange } from '../transport/types.js';
import { toolsParameter } from './ops.js';
import { isRateLimit } from './read.js';
import { CRITERION, type RuleBreak, type World } from './world.js';

export interface MissingReadAnalysis {
  breaks: RuleBreak[];
  /** No answer came: it proves nothing. */
  inconclusive?: boolean;
  /** How the error was signalled, when it was (for the report). */
  form?: string;
  /** Tools whose descriptions came anyway: whether they are granted is left open. */
  returned: string[];
}

/**
 * §6.1: a read without `tools` (or with an empty one) is answered with MISSING_TOOL_SELECTION,
 * a message and example URIs naming real tools; it changes nothing.
 */
export function analyzeMissingRead(world: World, uri: string, ex: Exchange): MissingReadAnalysis {
  const what = toolsParameter(uri) === undefined ? 'without ?tools=' : 'with an empty ?tools=';
  const out: MissingReadAnalysis = { breaks: [], returned: [] };
  // No answer, or a rate limit (§10.3: a server may refuse any read past its budget): it proves nothing.
  if (ex.noResponse || isRateLimit(ex)) return { ...out, inconclusive: true };
  const add = (code: string, args: Record<string, unknown>, level: RuleBreak['level'] = 'fail') =>
    out.breaks.push({ check: CRITERION.missing, code, args: { uri, what, ...args }, level, proof: [ex] });
  const payload = resourceJson(ex);
  if (isPlainObject(payload.value))
    out.returned = world.tools.filter((t) => isDescriptionEntry((payload.value as Record<string, unknown>)[t]));
  const bad = invalidErrorCode(ex);
  if (bad) {
    add('invalid-error-code', { problem: bad });
    return out;
  }
  const signal = findSignalledError(ex, MISSING_TOOL_SELECTION);
  if (!signal) {
    add('not-signalled', { instead: whatCameInstead(ex, out.returned) });
    return out;
  }
  if (!signal.accepted) {
    add('only-in-text', {});
    return out;
  }
  out.form = signal.form;
  if (typeof signal.payload.message !== 'string' || !signal.payload.message.trim()) add('no-message', {}, 'warn');
  const examples = signal.payload.examples;
  if (!Array.isArray(examples) || !examples.some((e) => typeof e === 'string' && e.includes('?tools=')))
    add('no-example-uris', {}, 'warn');
  for (const example of Array.isArray(examples) ? examples.filter((e): e is string => typeof e === 'string') : []) {
    const unknown = (toolsParameter(example) ?? []).map((n) => n.trim()).filter((n) => n && !world.toolSet.has(n));
    if (unknown.length) add('example-unknown-tool', { uri: example, tools: unknown }, 'warn');
  }
  return out;
}

function whatCameInstead(ex: Exchange, returned: string[]): string {
  if (ex.noResponse) return `no response came (${ex.note ?? ex.noResponse})`;
  const other = anySignalledCode(ex);
  if (other) return `it returned the error code ${other} instead`;
  if (ex.response?.error) return 'it returned a JSON-RPC error without the code in data.code';
  if (returned.length) return 'it returned tool descriptions instead, which defeats progressive disclosure';
  return 'it returned a result without the error';
}
