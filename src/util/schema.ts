import { createRequire } from 'node:module';
import type { Ajv, ValidateFunction, ErrorObject } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { Validator as CfValidator, format as cfFormats } from '@cfworker/json-schema';
import { ajvRegExpEngine, isUnsupportedPattern, safeRegExp } from './safe-regexp.js';
import { asText } from './text.js';
import { compiledValidator } from './shipped-schemas.js';

/**
 * ajv is loaded the first time a schema must really be compiled (a live outputSchema, a pattern
 * to run on RE2): most runs only meta-validate schemas, with the validators compiled at build time.
 * It is CommonJS, so it can be required synchronously.
 */
const require = createRequire(import.meta.url);
let ajvModules:
  | { Ajv: new (o: object) => Ajv; Ajv2020: new (o: object) => Ajv2020; addFormats: (ajv: Ajv | Ajv2020) => void }
  | undefined;
function ajvLib(): NonNullable<typeof ajvModules> {
  if (!ajvModules) {
    const formats = require('ajv-formats') as { default?: unknown };
    ajvModules = {
      Ajv: (require('ajv') as { Ajv: never }).Ajv,
      Ajv2020: (require('ajv/dist/2020.js') as { Ajv2020: never }).Ajv2020,
      addFormats: (formats.default ?? formats) as (ajv: Ajv | Ajv2020) => void,
    };
  }
  return ajvModules;
}

/** ajv-formats' function, for the few places that build their own ajv (tests). */
export function addFormats(ajv: Ajv | Ajv2020): void {
  ajvLib().addFormats(ajv);
}

export type SchemaDialect = 'draft-07' | '2020-12';

export interface CompiledSchema {
  dialect: SchemaDialect;
  validate?: ValidateFunction;
  /** Why the schema is not a valid JSON Schema, in plain words. */
  problem?: string;
}

function makeAjv<T extends Ajv | Ajv2020>(Cls: new (opts: object) => T): T {
  // strict: false — servers use annotation keywords (examples, x-…) that are legal JSON Schema.
  // No loadSchema: remote $refs are never fetched.
  // Patterns come from servers and files: RE2, never a backtracking engine (src/safe-regexp.ts).
  // validateSchema: false — schemas are meta-validated first with the validators compiled at build
  // time (schemaProblem), so ajv need not compile the meta-schemas at run time.
  const ajv = new Cls({
    allErrors: true,
    strict: false,
    validateSchema: false,
    addUsedSchema: false,
    code: { regExp: ajvRegExpEngine },
  });
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
    return {
      dialect: '2020-12',
      problem: `a JSON Schema must be an object, got ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema}`,
    };
  }
  const meta = schemaProblem(schema);
  if (meta.problem) return meta;
  const copy = { ...(schema as Record<string, unknown>) };
  const dialect = dialectOf(copy);
  delete copy.$id; // two tools may reuse an $id; each schema is compiled on its own
  delete copy.$schema;
  const ajv = dialect === 'draft-07' ? (draft07 ??= makeAjv(ajvLib().Ajv)) : (v2020 ??= makeAjv(ajvLib().Ajv2020));
  try {
    return { dialect, validate: ajv.compile(copy) };
  } catch (err) {
    return { dialect, problem: (err as Error).message };
  }
}

/** One line per ajv error, in words: "/limit must be <= 100". */
export function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  // ajv reports one fault once per schema branch it tried (e.g. "items must be object,boolean" ×3).
  return [
    ...new Set(
      (errors ?? []).map((e) => {
        const where = e.instancePath || '(the whole value)';
        const extra =
          e.keyword === 'additionalProperties'
            ? ` ('${asText((e.params as { additionalProperty?: string }).additionalProperty)}')`
            : '';
        return `${where} ${e.message ?? 'is invalid'}${extra}`;
      }),
    ),
  ];
}

/**
 * Whether a schema is a valid JSON Schema of its dialect, by the meta-schema alone (~0.01 ms):
 * for linting thousands of files, where compiling each schema (~1 ms of code generation) is
 * the whole cost.
 */
export function schemaProblem(schema: unknown): { dialect: SchemaDialect; problem?: string } {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return compileSchema(schema);
  const dialect = dialectOf(schema as Record<string, unknown>);
  const validate = compiledValidator(`meta-${dialect}`);
  const copy = { ...(schema as Record<string, unknown>) };
  delete copy.$schema;
  if (validate(copy)) return { dialect };
  return { dialect, problem: `schema is invalid: ${describeErrors(validate.errors).slice(0, 3).join('; ')}` };
}

/**
 * Validates values against a schema without compiling it (an interpreting validator): the fast
 * path for one or two examples per schema. Returns readable problems; a $ref that cannot be
 * resolved locally is a problem too (nothing is ever fetched).
 */
export function quickValidate(schema: Record<string, unknown>, value: unknown): string[] {
  // @cfworker matches `pattern` with JavaScript's backtracking RegExp: each pattern is handed to it
  // as a format of its own that RE2 checks (patternProperties, rarer, go through ajv instead).
  if (hasPatternProperties(schema)) {
    const compiled = compileSchema(schema);
    if (compiled.problem) return [`the schema cannot be applied (${compiled.problem})`];
    return compiled.validate!(value)
      ? []
      : describeErrors(compiled.validate!.errors).map((e) => e.replace(/^(\S+) /, '$1: '));
  }
  const draft = dialectOf(schema) === 'draft-07' ? '7' : '2020-12';
  try {
    const result = new CfValidator(withPatternsAsFormats(schema) as object, draft, false).validate(value);
    if (result.valid) return [];
    return result.errors
      .filter((e) => !CONTAINER_KEYWORDS.has(e.keyword))
      .map(
        (e) =>
          `${e.instanceLocation.replace(/^#/, '') || '(the whole value)'}: ${patternMessage(e.error).replace(/\.$/, '')}`,
      );
  } catch (err) {
    return [`the schema cannot be applied (${(err as Error).message})`];
  }
}

/** Patterns registered as @cfworker formats, by pattern: `pattern:<n>` runs the pattern on RE2. */
const patternFormats = new Map<string, string>();
const patternOfFormat = new Map<string, string>();

function formatFor(pattern: string): string {
  let name = patternFormats.get(pattern);
  if (!name) {
    name = `pattern:${patternFormats.size + 1}`;
    const re = safeRegExp(pattern);
    (cfFormats as Record<string, (s: string) => boolean>)[name] = (text: string) => re.test(text);
    patternFormats.set(pattern, name);
    patternOfFormat.set(name, pattern);
  }
  return name;
}

/** "String does not match format "pattern:3"." → the pattern's own words. */
function patternMessage(error: string): string {
  return error.replace(/String does not match format "(pattern:\d+)"/, (whole, name: string) => {
    const pattern = patternOfFormat.get(name);
    return pattern === undefined ? whole : `must match pattern ${JSON.stringify(pattern)}`;
  });
}

/** A copy of a schema whose every `pattern` is a format checked on RE2 (an existing format kept beside it). */
function withPatternsAsFormats(schema: unknown): unknown {
  // A copy either way: the validator writes (non-enumerable) keys into the schema it is given,
  // and a server's schema is a frozen fact of the run.
  if (!patternsOf(schema).length) return structuredClone(schema);
  return mapSchema(schema, (node) => {
    if (typeof node.pattern !== 'string') return node;
    const { pattern, ...rest } = node;
    const check = { format: formatFor(pattern) };
    return rest.format === undefined
      ? { ...rest, ...check }
      : { ...rest, allOf: [...(Array.isArray(rest.allOf) ? (rest.allOf as unknown[]) : []), check] };
  });
}

/** A deep copy of a JSON value with every object passed through `map` (bottom-up, iterative). */
function mapSchema(root: unknown, map: (node: Record<string, unknown>) => Record<string, unknown>): unknown {
  const copy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(copy);
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(out, k, { value: copy(v), enumerable: true, writable: true, configurable: true });
    return map(out);
  };
  return copy(root);
}

/** Whether a schema uses patternProperties anywhere. */
function hasPatternProperties(schema: unknown): boolean {
  const stack: unknown[] = [schema];
  while (stack.length) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (!Array.isArray(node) && typeof (node as Record<string, unknown>).patternProperties === 'object') return true;
    for (const child of Object.values(node)) if (typeof child === 'object') stack.push(child);
  }
  return false;
}

/** Errors of these keywords only say "something inside failed"; the inner error says what. */
const CONTAINER_KEYWORDS = new Set([
  'properties',
  'items',
  'prefixItems',
  'allOf',
  '$ref',
  'additionalItems',
  'unevaluatedProperties',
  'dependentSchemas',
]);

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
      if (typeof record.patternProperties === 'object' && record.patternProperties !== null)
        found.push(...Object.keys(record.patternProperties));
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
