import type { RuleProblem } from '../core/findings.js';
import type { Messages } from '../core/messages.js';
import { isPlainObject } from '../protocol/payload.js';
import { quickValidate, schemaProblem, unappliedPatterns } from '../util/schema.js';
import { SCHEMA_MESSAGES, schemaProblems } from './schema-problems.js';
import { nameProblems, TOOL_NAME_MESSAGES } from './tool-names.js';

/**
 * What makes a full tool description (PD §3.2, guide §7.1) right, in one place: the lint of a
 * tool_descriptions/ file and the live check of a fetched description run these same functions
 * and so report the same codes. Pointers are relative to the description.
 */
export const TOOL_DESCRIPTION_MESSAGES = {
  'name-mismatch': {
    message: "The description is named {name}, but it is the description of '{expected}' ({why}).",
    hint: 'Set "name" to \'{expected}\': the exact tools/list name, which is also the file name (tool_descriptions/<name>.json, §7.1).',
  },
  'name-invalid': TOOL_NAME_MESSAGES['name-invalid'],
  'input-schema-invalid': {
    message: 'The inputSchema is not a valid JSON Schema ({dialect}): {problem}.',
    hint: 'Fix the schema; $schema selects draft-07, otherwise 2020-12 applies.',
  },
  'input-schema-remote-ref': {
    message:
      'The inputSchema refers to {ref}, outside itself; clients cannot resolve it (mcp-pd-check fetches nothing), so its examples were not checked.',
    hint: 'Inline the referenced schema under $defs and refer to it as #/$defs/….',
  },
  'input-schema-not-object': {
    message: 'The inputSchema has type {type}; tool arguments are an object, so it must be "object".',
    hint: 'Set "type": "object" at the top of the inputSchema.',
  },
  'required-not-in-properties': {
    message: "The inputSchema requires '{property}', which is not among its properties.",
    hint: 'Describe \'{property}\' under "properties", or drop it from "required".',
  },
  'no-examples': {
    message: 'No examples: full descriptions SHOULD include usage examples (§3.2).',
    hint: 'Add "examples": [{ "description", "input": { … } }] with inputs that match the schema.',
  },
  'example-invalid': {
    message: 'Example {number} does not match the inputSchema: {problems}.',
    hint: 'Fix the example or the schema: an LLM copies examples literally.',
  },
  'pattern-not-applied':
    'The inputSchema has the pattern {pattern}, which uses lookaround or backreferences; it has no linear-time form, so examples were not checked against it.',
  'no-error-guidance': {
    message: 'No error_guidance: full descriptions SHOULD document errors (§3.2).',
    hint: 'Add "error_guidance": { "common_errors": [{ "error", "cause", "solution" }] }.',
  },
} as const satisfies Messages;

/** Both the shape (the shipped schema) and the rules above: what a live check reports. */
export const FULL_TOOL_DESCRIPTION_MESSAGES = {
  ...SCHEMA_MESSAGES,
  ...TOOL_DESCRIPTION_MESSAGES,
} as const satisfies Messages;

/** The shape, by the shipped tool-description schema. */
export function toolDescriptionShape(value: unknown, base = ''): RuleProblem[] {
  return schemaProblems('tool-description', value, { base });
}

/**
 * The rules beyond the shape. `expected` is the name the description must carry: its file name
 * (lint) or the name it was fetched by (live); `why` says which, for the message.
 */
export function toolDescriptionRules(value: unknown, expected?: { name: string; why: string }): RuleProblem[] {
  if (!isPlainObject(value)) return [];
  const problems: RuleProblem[] = [];
  const add = (
    code: keyof typeof TOOL_DESCRIPTION_MESSAGES,
    pointer: string,
    args: Record<string, unknown>,
    level: RuleProblem['level'] = 'fail',
  ) => problems.push({ code, pointer, args, level });
  if (typeof value.name === 'string') {
    if (expected && value.name !== expected.name)
      add('name-mismatch', '/name', { name: `'${value.name}'`, expected: expected.name, why: expected.why });
    problems.push(...nameProblems(value.name));
  } else if (expected && value.name !== undefined) {
    add('name-mismatch', '/name', { name: JSON.stringify(value.name), expected: expected.name, why: expected.why });
  }
  const schema = value.inputSchema;
  // A missing or non-object inputSchema is the shape's finding.
  if (isPlainObject(schema)) {
    const meta = schemaProblem(schema);
    if (meta.problem) add('input-schema-invalid', '/inputSchema', { dialect: meta.dialect, problem: meta.problem });
    const remote = remoteRefs(schema);
    for (const ref of remote) add('input-schema-remote-ref', '/inputSchema', { ref });
    if (schema.type !== 'object')
      add('input-schema-not-object', schema.type === undefined ? '/inputSchema' : '/inputSchema/type', {
        type: JSON.stringify(schema.type ?? null),
      });
    const properties = isPlainObject(schema.properties) ? schema.properties : {};
    if (Array.isArray(schema.required)) {
      schema.required.forEach((property, i) => {
        if (typeof property === 'string' && !Object.prototype.hasOwnProperty.call(properties, property))
          add('required-not-in-properties', `/inputSchema/required/${i}`, { property });
      });
    }
    problems.push(...exampleProblems(value, meta.problem || remote.length ? undefined : schema));
  }
  if (!('error_guidance' in value)) add('no-error-guidance', '', {}, 'warn');
  return problems;
}

function exampleProblems(value: Record<string, unknown>, schema: Record<string, unknown> | undefined): RuleProblem[] {
  const examples = value.examples;
  if (!Array.isArray(examples) || examples.length === 0)
    return [{ code: 'no-examples', pointer: '', args: {}, level: 'warn' }];
  const problems: RuleProblem[] = [];
  if (!schema) return problems;
  for (const pattern of unappliedPatterns(schema))
    problems.push({
      code: 'pattern-not-applied',
      pointer: '/inputSchema',
      args: { pattern: JSON.stringify(pattern) },
      level: 'info',
    });
  examples.forEach((example, i) => {
    // An example without an input object is the shape's finding.
    if (!isPlainObject(example) || !isPlainObject(example.input)) return;
    const found = quickValidate(schema, example.input);
    if (found.length)
      problems.push({
        code: 'example-invalid',
        pointer: `/examples/${i}/input`,
        args: { number: i + 1, problems: found.slice(0, 3).join('; ') },
        level: 'fail',
      });
  });
  return problems;
}

/** Every `$ref` of a schema that points outside it (not `#…`), at any depth; iterative. */
function remoteRefs(schema: unknown): string[] {
  const found = new Set<string>();
  const stack: unknown[] = [schema];
  while (stack.length) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && !ref.startsWith('#')) found.add(ref);
    for (const child of Object.values(node)) if (typeof child === 'object') stack.push(child);
  }
  return [...found];
}

/** Shape and rules together (the live check; the lint splits them over two checks). */
export function toolDescriptionProblems(value: unknown, expected?: { name: string; why: string }): RuleProblem[] {
  return [...toolDescriptionShape(value), ...toolDescriptionRules(value, expected)];
}
