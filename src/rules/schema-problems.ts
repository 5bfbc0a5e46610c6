import type { ErrorObject } from 'ajv';
import type { RuleProblem } from '../core/findings.js';
import { fieldName, joinPointer, valueAt } from '../util/json-pointer.js';
import { renderTemplate, templateOf, type Messages } from '../core/messages.js';
import { compiledValidator, type ShippedSchema } from '../util/shipped-schemas.js';
import { asText, clip } from '../util/text.js';

/**
 * A shipped schema's verdict on a value, as rule problems a person understands: which field,
 * what was expected, what was found. Unknown fields only warn (readers ignore them).
 */
export const SCHEMA_MESSAGES = {
  'missing-field': {
    message: "Missing required field '{field}' ({schema}).",
    hint: 'Add it; see schemas/{file} for what is expected.',
  },
  'unknown-field': {
    message: "Unknown field '{field}': {schema} does not define it.",
    hint: 'Remove it or fix its spelling; readers ignore fields they do not know.',
  },
  'renamed-field': {
    message: "Unknown field '{field}': {schema} calls this '{name}'.",
    hint: "Rename it to '{name}'.",
  },
  'wrong-value': {
    message: "'{field}' must be {allowed}; found {found} ({schema}).",
    hint: 'Use an allowed value; see schemas/{file}.',
  },
  'wrong-type': {
    message: "'{field}' must be {expected}; found {found} ({schema}).",
    hint: 'See schemas/{file} for what is expected.',
  },
  'bad-format': {
    message: "'{field}' must be a valid {format}; found {found} ({schema}).",
    hint: 'See schemas/{file} for what is expected.',
  },
  'bad-pattern': {
    message: "'{field}' must be {expected}; found {found} ({schema}).",
    hint: 'See schemas/{file} for what is expected.',
  },
  'empty-field': {
    message: "'{field}' must not be empty ({schema}).",
    hint: 'Fill it in, or leave the field out if it is optional.',
  },
  'out-of-range': {
    message: "'{field}' {limit}; found {found} ({schema}).",
    hint: 'See schemas/{file} for the allowed range.',
  },
  'needs-one-of': {
    message: "'{field}' needs one of {fields} ({schema}).",
    hint: 'See schemas/{file} for what is expected.',
  },
  'no-allowed-form': {
    message: "'{field}' matches none of the allowed forms; found {found} ({schema}).",
    hint: 'See schemas/{file} for the allowed forms.',
  },
  'schema-violation': { message: "'{field}' {problem} ({schema}).", hint: 'See schemas/{file} for what is expected.' },
} as const satisfies Messages;

export const SCHEMA_TITLES: Record<ShippedSchema, string> = {
  'tool-description': 'a progressive-disclosure tool description',
  'tool-card': 'MCP Tool Cards v0.1',
  'dashdash-server': 'dashdash v0.2.0 server metadata',
  'dashdash-tool': 'dashdash v0.2.0 tool metadata',
  'dashdash-resource': 'dashdash v0.2.0 resource metadata',
  report: 'the report schema',
  config: 'the config schema',
  baseline: 'the baseline schema',
  lock: 'the lock file schema',
};

/** Field names other writers use where the shipped schema has another name. */
export type FieldAliases = Readonly<Record<string, string>>;

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const json = JSON.stringify(value) ?? asText(value);
  return `${typeof value === 'string' ? 'the string' : `the ${typeof value}`} ${clip(json, 60)}`;
}

const PATTERN_NAMES: Record<string, string> = {
  '^[a-z0-9-]{1,64}$': 'lowercase letters, digits and hyphens, at most 64 characters',
  '^sha256:[0-9a-f]{64}$': "a digest: 'sha256:' and 64 lowercase hex digits",
};

function article(type: string): string {
  const t = type.split(',').join(' or ');
  return /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`;
}

/**
 * Validates `value` against a shipped schema. `base` is where the value sits in its document,
 * so that field names read from the document's top (dashdash.identity.name); pointers in the
 * problems stay relative to the value.
 */
export function schemaProblems(
  schema: ShippedSchema,
  value: unknown,
  options: { base?: string; aliases?: FieldAliases } = {},
): RuleProblem[] {
  const validate = compiledValidator(schema);
  if (validate(value)) return [];
  return fromAjv(validate.errors ?? [], value, schema, options);
}

function fromAjv(
  list: ErrorObject[],
  root: unknown,
  schema: ShippedSchema,
  options: { base?: string; aliases?: FieldAliases },
): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const field = (pointer: string) => fieldName((options.base ?? '') + pointer);
  const context = { schema: SCHEMA_TITLES[schema], file: `${schema}.schema.json` };
  const add = (
    code: keyof typeof SCHEMA_MESSAGES,
    pointer: string,
    args: Record<string, unknown>,
    level: RuleProblem['level'] = 'fail',
  ) => problems.push({ code, pointer, args: { ...args, ...context }, level });
  for (const e of list) {
    const found = shown(valueAt(root, e.instancePath));
    const p = e.params as Record<string, unknown>;
    // Errors inside an anyOf are folded into the anyOf's own problem.
    if (
      /\/anyOf\/\d+\//.test(e.schemaPath) &&
      list.some((o) => o.keyword === 'anyOf' && e.schemaPath.startsWith(o.schemaPath.replace(/\/anyOf$/, '/anyOf/')))
    )
      continue;
    switch (e.keyword) {
      case 'required':
        add('missing-field', e.instancePath, { field: field(joinPointer(e.instancePath, asText(p.missingProperty))) });
        break;
      case 'additionalProperties': {
        const name = asText(p.additionalProperty);
        const pointer = joinPointer(e.instancePath, name);
        const alias = options.aliases?.[name];
        if (alias) add('renamed-field', pointer, { field: field(pointer), name: alias }, 'warn');
        else add('unknown-field', pointer, { field: field(pointer) }, 'warn');
        break;
      }
      case 'enum':
        add('wrong-value', e.instancePath, {
          field: field(e.instancePath),
          allowed: `one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
          found,
        });
        break;
      case 'const':
        add('wrong-value', e.instancePath, {
          field: field(e.instancePath),
          allowed: JSON.stringify(p.allowedValue),
          found,
        });
        break;
      case 'type':
        add('wrong-type', e.instancePath, { field: field(e.instancePath), expected: article(asText(p.type)), found });
        break;
      case 'format':
        add('bad-format', e.instancePath, { field: field(e.instancePath), format: asText(p.format), found });
        break;
      case 'pattern': {
        const pattern = asText(p.pattern);
        const expected =
          PATTERN_NAMES[pattern] ??
          (pattern.includes('\\d+)\\.') || pattern.startsWith('^(0|')
            ? 'a semantic version such as 1.4.0'
            : `text matching the pattern ${pattern}`);
        add('bad-pattern', e.instancePath, { field: field(e.instancePath), expected, found });
        break;
      }
      case 'minLength':
        add('empty-field', e.instancePath, { field: field(e.instancePath) });
        break;
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        add('out-of-range', e.instancePath, {
          field: field(e.instancePath),
          limit: e.message ?? 'is out of range',
          found,
        });
        break;
      case 'anyOf': {
        const inner = list.filter(
          (o) => o !== e && o.schemaPath.startsWith(e.schemaPath.replace(/\/anyOf$/, '/anyOf/')),
        );
        const missing = inner
          .filter((o) => o.keyword === 'required')
          .map((o) => `'${asText((o.params as Record<string, unknown>).missingProperty)}'`);
        if (missing.length === inner.length && missing.length)
          add('needs-one-of', e.instancePath, { field: field(e.instancePath), fields: missing.join(' or ') });
        else add('no-allowed-form', e.instancePath, { field: field(e.instancePath), found });
        break;
      }
      default:
        add('schema-violation', e.instancePath, { field: field(e.instancePath), problem: e.message ?? 'is invalid' });
    }
  }
  return problems;
}

/** The same problems as sentences, for places that speak in text only (config and baseline files). */
export function schemaProblemText(schema: ShippedSchema, value: unknown): string[] {
  return schemaProblems(schema, value).map((p) =>
    renderTemplate(templateOf(SCHEMA_MESSAGES[p.code as keyof typeof SCHEMA_MESSAGES]), p.args),
  );
}
