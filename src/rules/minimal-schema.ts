import type { RuleProblem } from '../core/findings.js';
import type { Messages } from '../core/messages.js';
import { joinPointer, pointerSegments } from '../util/json-pointer.js';
import { isPlainObject } from '../protocol/payload.js';

const SCHEMA_HINT =
  'In tools/list use { "type": "object", "additionalProperties": true } and move the real schema to the full description.';

export const MINIMAL_SCHEMA_MESSAGES = {
  'parameters-in-list': {
    message:
      "Tool '{tool}': the tools/list inputSchema details its parameters ({parameters}); §3.1 forbids detailed parameter schemas in stage 1.",
    hint: SCHEMA_HINT,
  },
  'required-in-list': {
    message: "Tool '{tool}': the tools/list inputSchema lists required parameters ({required}).",
    hint: SCHEMA_HINT,
  },
} as const satisfies Messages;

/** Subschemas the walk follows, at most: a hostile schema must not make it long. */
const MAX_NODES = 1000;

/**
 * What a tools/list inputSchema constrains about the tool's parameters (§3.1: stage 1 carries no
 * parameter details), wherever it says it: at the top, or behind a local `$ref` (into `$defs` or
 * `definitions`) and `allOf`/`anyOf`/`oneOf`/`if`/`then`/`else` — not only its top-level keys.
 * Pointers are relative to the schema.
 */
export function minimalSchemaProblems(schema: unknown): RuleProblem[] {
  if (!isPlainObject(schema)) return [];
  const problems: RuleProblem[] = [];
  const seen = new Set<unknown>();
  const stack: Array<[unknown, string]> = [[schema, '']];
  while (stack.length && seen.size < MAX_NODES) {
    const [node, pointer] = stack.pop()!;
    if (!isPlainObject(node) || seen.has(node)) continue;
    seen.add(node);
    const properties = isPlainObject(node.properties) ? Object.keys(node.properties) : [];
    const patterns = isPlainObject(node.patternProperties) ? Object.keys(node.patternProperties) : [];
    if (properties.length || patterns.length) {
      problems.push({
        code: 'parameters-in-list',
        pointer: joinPointer(pointer, properties.length ? 'properties' : 'patternProperties'),
        args: { parameters: properties.length ? properties : patterns.map((p) => `/${p}/`) },
        level: 'fail',
      });
    }
    if (Array.isArray(node.required) && node.required.length) {
      problems.push({
        code: 'required-in-list',
        pointer: joinPointer(pointer, 'required'),
        args: { required: node.required.map(String) },
        level: 'fail',
      });
    }
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#')) {
      const target = resolveLocal(schema, node.$ref);
      if (target !== undefined) stack.push([target, node.$ref.slice(1)]);
    }
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = node[key];
      if (Array.isArray(list)) list.forEach((sub, i) => stack.push([sub, joinPointer(pointer, key, i)]));
    }
    for (const key of ['if', 'then', 'else'] as const)
      if (isPlainObject(node[key])) stack.push([node[key], joinPointer(pointer, key)]);
  }
  return problems;
}

/** A local reference (`#/$defs/args`) within the schema, if it resolves. */
function resolveLocal(root: Record<string, unknown>, ref: string): unknown {
  let node: unknown = root;
  for (const segment of pointerSegments(decodeURIComponent(ref.slice(1)))) {
    if (!isPlainObject(node) || !Object.prototype.hasOwnProperty.call(node, segment)) return undefined;
    node = node[segment];
  }
  return node;
}
