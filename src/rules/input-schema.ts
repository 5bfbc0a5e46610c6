import type { RuleProblem } from '../core/findings.js';
import type { Messages } from '../core/messages.js';
import { isPlainObject } from '../protocol/payload.js';
import { joinPointer } from '../util/json-pointer.js';
import { dialectOf } from '../util/schema.js';

/**
 * The MCP rules of a tool's inputSchema beyond validity (MCP tools spec, "Tool"): the live check
 * (mcp-input-schema) and the lint of tool descriptions run these and report the same codes.
 * Pointers are relative to the schema.
 */
export const INPUT_SCHEMA_MESSAGES = {
  'input-schema-no-properties': {
    message:
      'The inputSchema describes no parameters but accepts any object; MCP recommends {"type":"object","additionalProperties":false} for a tool without parameters.',
    hint: 'Set "additionalProperties": false (or describe the arguments under "properties", if the tool takes some).',
  },
  'draft07-construct': {
    message: 'The inputSchema has no $schema, so it is read as JSON Schema 2020-12, where {construct}: {meaning}.',
    hint: 'Write it the 2020-12 way ({instead}), or declare "$schema": "http://json-schema.org/draft-07/schema#" if draft-07 is meant.',
  },
} as const satisfies Messages;

/** Draft-07 constructs whose meaning differs under 2020-12, the MCP default without $schema. */
const DRAFT07: Array<{
  applies: (node: Record<string, unknown>) => boolean;
  keyword: string;
  construct: string;
  meaning: string;
  instead: string;
}> = [
  {
    applies: (n) => Array.isArray(n.items),
    keyword: 'items',
    construct: '"items" is an array',
    meaning:
      'a tuple is "prefixItems" there, and an array under "items" is not a schema: validators reject the schema or check nothing',
    instead: '"prefixItems": [ … ]',
  },
  {
    applies: (n) => 'additionalItems' in n,
    keyword: 'additionalItems',
    construct: '"additionalItems" is used',
    meaning: 'it is ignored there (2020-12 uses "items" after "prefixItems")',
    instead: '"items" next to "prefixItems"',
  },
  {
    applies: (n) => 'dependencies' in n,
    keyword: 'dependencies',
    construct: '"dependencies" is used',
    meaning: 'it is ignored there: nothing it says is enforced',
    instead: '"dependentRequired" or "dependentSchemas"',
  },
  {
    applies: (n) =>
      typeof n.$ref === 'string' &&
      Object.keys(n).some(
        (k) => !['$ref', '$comment', 'description', 'title', '$id', '$schema', 'default', 'examples'].includes(k),
      ),
    keyword: '$ref',
    construct: '"$ref" has sibling keywords',
    meaning: 'the siblings apply too, whereas draft-07 ignores them',
    instead: 'keep only the constraints you mean next to "$ref"',
  },
];

/** Keywords whose value is a schema, a list of schemas or a map of schemas (2020-12 and draft-07). */
const ONE = [
  'additionalProperties',
  'additionalItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'items',
];
const MANY = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];
/** A hostile schema must not make the walk long. */
const MAX_NODES = 10_000;

/** Problems of a tool's full inputSchema (not of a minimal tools/list schema: see `draft07Only`). */
export function inputSchemaProblems(schema: unknown, options: { draft07Only?: boolean } = {}): RuleProblem[] {
  if (!isPlainObject(schema)) return [];
  const problems: RuleProblem[] = [];
  if (!options.draft07Only) {
    const properties = isPlainObject(schema.properties) ? Object.keys(schema.properties) : [];
    if (properties.length === 0 && schema.additionalProperties !== false && !hasCombinators(schema)) {
      problems.push({ code: 'input-schema-no-properties', pointer: '', args: {}, level: 'warn' });
    }
  }
  if (dialectOf(schema) !== '2020-12' || typeof schema.$schema === 'string') return problems;
  for (const [node, pointer] of subschemas(schema)) {
    for (const rule of DRAFT07) {
      if (rule.applies(node))
        problems.push({
          code: 'draft07-construct',
          pointer: `${pointer}/${rule.keyword}`,
          args: { construct: rule.construct, meaning: rule.meaning, instead: rule.instead },
          level: 'warn',
        });
    }
  }
  return problems;
}

/** A schema that says what it accepts through anyOf/oneOf/allOf/$ref rather than properties. */
function hasCombinators(schema: Record<string, unknown>): boolean {
  return ['anyOf', 'oneOf', 'allOf', '$ref', 'patternProperties', 'if'].some((k) => k in schema);
}

/** Every subschema with its JSON pointer, by keyword (a property named "items" is not a keyword). */
function subschemas(root: Record<string, unknown>): Array<[Record<string, unknown>, string]> {
  const found: Array<[Record<string, unknown>, string]> = [];
  const stack: Array<[unknown, string]> = [[root, '']];
  while (stack.length && found.length < MAX_NODES) {
    const [node, pointer] = stack.pop()!;
    if (!isPlainObject(node)) continue;
    found.push([node, pointer]);
    for (const k of ONE) if (isPlainObject(node[k])) stack.push([node[k], `${pointer}/${k}`]);
    for (const k of MANY) {
      const list = node[k];
      if (Array.isArray(list)) list.forEach((s, i) => stack.push([s, `${pointer}/${k}/${i}`]));
    }
    for (const k of MAPS) {
      const map = node[k];
      if (isPlainObject(map))
        for (const [name, s] of Object.entries(map)) stack.push([s, joinPointer(pointer, k, name)]);
    }
  }
  return found;
}
