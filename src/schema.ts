import { Ajv, type ValidateFunction, type ErrorObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Validator as CfValidator } from '@cfworker/json-schema';
import { ajvRegExpEngine, isUnsupportedPattern } from './safe-regexp.js';
import { asText } from './text.js';

/** ajv-formats is CommonJS; under NodeNext its function arrives as the module's `default`. */
export const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv | Ajv2020) => void;

export type SchemaDialect = 'draft-07' | '2020-12';

export interface CompiledSchema {
  dialect: SchemaDialect;
  validate?: ValidateFunction;
  /** Why the schema is not a valid JSON Schema, in plain words. */
  problem?: string;
}

function makeAjv<T extends Ajv>(Cls: new (opts: object) => T): T {
  // strict: false — servers use annotation keywords (examples, x-…) that are legal JSON Schema.
  // No loadSchema: remote $refs are never fetched.
  // Patterns come from servers and files: RE2, never a backtracking engine (src/safe-regexp.ts).
  const ajv = new Cls({ allErrors: true, strict: false, validateSchema: true, addUsedSchema: false, code: { regExp: ajvRegExpEngine } });
  addFormats(ajv);
  return ajv;
}

let draft07: Ajv | undefined;
let v2020: Ajv2020 | undefined;

/** The dialect a schema asks for with `$schema`; MCP's default is 2020-12. */
export function dialectOf(schema: Record<string, unknown>): SchemaDialect {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  return /draft-0[4-7]/.test(declared) ? 'draft-07' : '2020-12';
}

/** Compiles a schema in its own dialect without keeping it in ajv's shared registry. */
export function compileSchema(schema: unknown): CompiledSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { dialect: '2020-12', problem: `a JSON Schema must be an object, got ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema}` };
  }
  const copy = { ...(schema as Record<string, unknown>) };
  const dialect = dialectOf(copy);
  delete copy.$id; // two tools may reuse an $id; each schema is compiled on its own
  delete copy.$schema;
  const ajv = dialect === 'draft-07' ? (draft07 ??= makeAjv(Ajv)) : (v2020 ??= makeAjv(Ajv2020));
  try {
    return { dialect, validate: ajv.compile(copy) };
  } catch (err) {
    return { dialect, problem: (err as Error).message };
  }
}

/** One line per ajv error, in words: "/limit must be <= 100". */
export function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath || '(the whole value)';
    const extra = e.keyword === 'additionalProperties' ? ` ('${asText((e.params as { additionalProperty?: string }).additionalProperty)}')` : '';
    return `${where} ${e.message ?? 'is invalid'}${extra}`;
  });
}

/**
 * Whether a schema is a valid JSON Schema of its dialect, by the meta-schema alone (~0.01 ms):
 * for linting thousands of files, where compiling each schema (~1 ms of code generation) is
 * the whole cost.
 */
export function schemaProblem(schema: unknown): { dialect: SchemaDialect; problem?: string } {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return compileSchema(schema);
  const dialect = dialectOf(schema as Record<string, unknown>);
  const ajv = dialect === 'draft-07' ? (draft07 ??= makeAjv(Ajv)) : (v2020 ??= makeAjv(Ajv2020));
  const copy = { ...(schema as Record<string, unknown>) };
  delete copy.$schema;
  if (ajv.validateSchema(copy)) return { dialect };
  return { dialect, problem: `schema is invalid: ${describeErrors(ajv.errors).slice(0, 3).join('; ')}` };
}

/**
 * Validates values against a schema without compiling it (an interpreting validator): the fast
 * path for one or two examples per schema. Returns readable problems; a $ref that cannot be
 * resolved locally is a problem too (nothing is ever fetched).
 */
export function quickValidate(schema: Record<string, unknown>, value: unknown): string[] {
  // @cfworker matches `pattern` with JavaScript's backtracking RegExp; such schemas go through
  // ajv, whose patterns run on RE2.
  if (hasPatterns(schema)) {
    const compiled = compileSchema(schema);
    if (compiled.problem) return [`the schema cannot be applied (${compiled.problem})`];
    return compiled.validate!(value) ? [] : describeErrors(compiled.validate!.errors).map((e) => e.replace(/^(\S+) /, '$1: '));
  }
  const draft = dialectOf(schema) === 'draft-07' ? '7' : '2020-12';
  try {
    const result = new CfValidator(schema as object, draft, false).validate(value);
    if (result.valid) return [];
    return result.errors
      .filter((e) => !CONTAINER_KEYWORDS.has(e.keyword))
      .map((e) => `${e.instanceLocation.replace(/^#/, '') || '(the whole value)'}: ${e.error.replace(/\.$/, '')}`);
  } catch (err) {
    return [`the schema cannot be applied (${(err as Error).message})`];
  }
}

/** Errors of these keywords only say "something inside failed"; the inner error says what. */
const CONTAINER_KEYWORDS = new Set(['properties', 'items', 'prefixItems', 'allOf', '$ref', 'additionalItems', 'unevaluatedProperties', 'dependentSchemas']);

/** Whether a schema uses `pattern` or `patternProperties` anywhere. */
function hasPatterns(schema: unknown): boolean {
  return patternsOf(schema).length > 0;
}

/** The `pattern`s and `patternProperties` keys of a schema, at any depth (iteratively: no recursion limit). */
function patternsOf(schema: unknown): string[] {
  const found: string[] = [];
  const stack: unknown[] = [schema];
  while (stack.length) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (!Array.isArray(node)) {
      const record = node as Record<string, unknown>;
      if (typeof record.pattern === 'string') found.push(record.pattern);
      if (typeof record.patternProperties === 'object' && record.patternProperties !== null) found.push(...Object.keys(record.patternProperties));
    }
    for (const child of Object.values(node)) if (typeof child === 'object') stack.push(child);
  }
  return found;
}

/**
 * Patterns of a schema that are not applied: lookaround and backreferences have no linear-time
 * form, and a backtracking engine is never used on text from outside (src/safe-regexp.ts).
 */
export function unappliedPatterns(schema: unknown): string[] {
  return [...new Set(patternsOf(schema).filter(isUnsupportedPattern))];
}
