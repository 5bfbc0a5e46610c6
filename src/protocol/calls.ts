import type { Exchange, JsonObject } from '../transport/types.js';
import { findSignalledError, type SignalledError } from './errors.js';
import { isPlainObject } from './payload.js';
import { quickValidate } from '../util/schema.js';
import { escapeRegExp } from '../util/regexp.js';

export const TOOL_DESCRIPTION_REQUIRED = 'TOOL_DESCRIPTION_REQUIRED';
export const MISSING_TOOL_SELECTION = 'MISSING_TOOL_SELECTION';

/**
 * Arguments for a real call: the input of the first example that its own inputSchema accepts
 * (a broken example is pd-full-descriptions' finding, and would only make the call fail), else
 * the first example's, else `{}`.
 */
export function exampleArguments(full: JsonObject | undefined): JsonObject {
  const inputs = (Array.isArray(full?.examples) ? full.examples : [])
    .filter((e) => isPlainObject(e) && isPlainObject(e.input))
    .map((e) => (e as JsonObject).input as JsonObject);
  if (!inputs.length) return {};
  const schema = full?.inputSchema;
  return (isPlainObject(schema) && inputs.find((input) => quickValidate(schema, input).length === 0)) || inputs[0];
}

/**
 * Read-only by the tool's own word: `annotations.readOnlyHint` in tools/list, or dashdash
 * `operationType: read` (listed or in its full description) — unless it also says it is
 * destructive: `destructiveHint: true` wins over every other hint (DESIGN, "Calling tools").
 */
export function isReadOnlyTool(entry: JsonObject | undefined, full?: JsonObject): boolean {
  if (isDestructiveTool(entry, full)) return false;
  const annotations = entry?.annotations;
  if (isPlainObject(annotations) && annotations.readOnlyHint === true) return true;
  for (const source of [entry, full]) {
    const dd = source?.dashdash;
    if (isPlainObject(dd) && dd.operationType === 'read') return true;
  }
  return false;
}

/**
 * Destructive by the tool's own word: `annotations.destructiveHint: true` (MCP tool annotations), in tools/list or its
 * full description, whatever else it says.
 */
export function isDestructiveTool(entry: JsonObject | undefined, full?: JsonObject): boolean {
  return [entry, full].some(
    (source) => isPlainObject(source?.annotations) && source.annotations.destructiveHint === true,
  );
}

export type CallOutcome =
  { kind: 'refused'; signal: SignalledError } | { kind: 'authorized' } | { kind: 'no-response'; note: string };

/**
 * "Authorized" means not refused with TOOL_DESCRIPTION_REQUIRED: a tool may still reject its
 * arguments. A refusal in any form counts here (even the code only in text); whether the form is
 * acceptable is pd-description-required's business.
 */
export function classifyCall(ex: Exchange): CallOutcome {
  // Progress reported on the call: it reached the tool (it was not refused), whatever came after.
  if (reachedTool(ex)) return { kind: 'authorized' };
  if (ex.noResponse) return { kind: 'no-response', note: ex.note ?? ex.noResponse };
  const signal = findSignalledError(ex, TOOL_DESCRIPTION_REQUIRED);
  return signal ? { kind: 'refused', signal } : { kind: 'authorized' };
}

/** Whether a call without an answer reached its tool: the server reported progress on it (it was running). */
export function reachedTool(ex: Exchange): boolean {
  return ex.method === 'tools/call' && ex.progress !== undefined && !ex.response;
}

/** Words that say arguments were refused, whatever names them. */
const REFUSAL_WORDS =
  /INVALID_(ARGUMENTS|PARAMS|INPUT)|invalid (arguments?|params?|parameters?|input)|validation (error|failed)|must have required property|schema validation/i;
/** What a message about one of the tool's own parameters says of it. */
const ABOUT_A_VALUE =
  /\b(required|missing|invalid|expected|must|not allowed|unknown|unrecognized|too (long|short|large|small))\b/i;

/**
 * Whether an answer refuses the call's arguments as invalid (and says so): JSON-RPC -32602, or an
 * error or `isError` result whose text says the arguments are invalid, or names one of the tool's
 * own parameters (from `schema`) and what is wrong with it. "getaddrinfo ENOTFOUND", "API key is
 * required" or a stack trace say the tool ran and failed at its work, not that it checked them.
 */
export function rejectsArguments(ex: Exchange, schema?: unknown): boolean {
  const error = ex.response?.error;
  const result = ex.response?.result;
  let text: string;
  if (isPlainObject(error)) {
    if (error.code === -32602) return true;
    text = `${typeof error.message === 'string' ? error.message : ''} ${JSON.stringify(error.data ?? '')}`;
  } else if (isPlainObject(result) && result.isError === true) {
    text = JSON.stringify(result.content ?? '') + JSON.stringify(result.structuredContent ?? '');
  } else {
    return false;
  }
  if (REFUSAL_WORDS.test(text)) return true;
  return (
    ABOUT_A_VALUE.test(text) &&
    parameterNames(schema).some((name) =>
      new RegExp(`(^|[^A-Za-z0-9_])${escapeRegExp(name)}($|[^A-Za-z0-9_])`).test(text),
    )
  );
}

/** The names of a schema's top-level properties. */
function parameterNames(schema: unknown): string[] {
  return isPlainObject(schema) && isPlainObject(schema.properties)
    ? Object.keys(schema.properties).filter((n) => n.length > 1)
    : [];
}

/**
 * Arguments a tool's schema surely refuses: without a required property (`{}`), else a typed
 * property given a value of another type. Undefined when the schema says too little.
 */
export function invalidArguments(schema: unknown): { args: JsonObject; violation: string } | undefined {
  if (!isPlainObject(schema)) return undefined;
  const required = Array.isArray(schema.required)
    ? schema.required.filter((r): r is string => typeof r === 'string')
    : [];
  if (required.length) return { args: {}, violation: `the required property '${required[0]}' is missing` };
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  for (const [property, sub] of Object.entries(properties)) {
    const type = isPlainObject(sub) ? sub.type : undefined;
    const wrong = typeof type === 'string' ? WRONG_VALUE[type] : undefined;
    if (wrong)
      return {
        args: { [property]: wrong.value },
        violation: `'${property}' is ${wrong.what}, not ${/^[aeiou]/.test(type as string) ? 'an' : 'a'} ${type as string}`,
      };
  }
  // No other property is allowed: one more is refused.
  if (
    schema.additionalProperties === false &&
    !Object.hasOwn(properties, UNEXPECTED) &&
    !isPlainObject(schema.patternProperties)
  ) {
    return {
      args: { [UNEXPECTED]: true },
      violation: `'${UNEXPECTED}' is no property of it, and it allows no other (additionalProperties: false)`,
    };
  }
  return undefined;
}

/**
 * The violation these arguments surely commit against a tool's schema, of the kinds
 * `invalidArguments` builds (a required property missing, a typed property of another type, a
 * property where none other is allowed); undefined when they commit none of them.
 */
export function violationOf(args: JsonObject, schema: unknown): string | undefined {
  if (!isPlainObject(schema)) return undefined;
  const required = Array.isArray(schema.required)
    ? schema.required.filter((r): r is string => typeof r === 'string')
    : [];
  const missing = required.find((r) => !Object.hasOwn(args, r));
  if (missing !== undefined) return `the required property '${missing}' is missing`;
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  for (const [property, value] of Object.entries(args)) {
    const sub = Object.hasOwn(properties, property) ? properties[property] : undefined;
    const type = isPlainObject(sub) ? sub.type : undefined;
    if (typeof type === 'string' && type in WRONG_VALUE && !isOfType(value, type))
      return `'${property}' is ${JSON.stringify(value)?.slice(0, 40)}, not ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
    if (sub === undefined && schema.additionalProperties === false && !isPlainObject(schema.patternProperties))
      return `'${property}' is no property of it, and it allows no other (additionalProperties: false)`;
  }
  return undefined;
}

function isOfType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    default:
      return true;
  }
}

/** A property no tool has: what a schema with additionalProperties: false refuses. */
const UNEXPECTED = 'pd_check_unexpected_argument';

/** A value of another type for each JSON Schema type. */
const WRONG_VALUE: Record<string, { value: unknown; what: string }> = {
  string: { value: 12345, what: 'the number 12345' },
  number: { value: 'not a number', what: 'a string' },
  integer: { value: 'not a number', what: 'a string' },
  boolean: { value: 'yes', what: 'the string "yes"' },
  object: { value: 'not an object', what: 'a string' },
  array: { value: 'not an array', what: 'a string' },
};
