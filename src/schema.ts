import { Ajv, type ValidateFunction, type ErrorObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its function arrives as the module's `default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => void;

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
  const ajv = new Cls({ allErrors: true, strict: false, validateSchema: true, addUsedSchema: false });
  addFormats(ajv as unknown as Ajv);
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
    const extra = e.keyword === 'additionalProperties' ? ` ('${String((e.params as { additionalProperty?: string }).additionalProperty)}')` : '';
    return `${where} ${e.message ?? 'is invalid'}${extra}`;
  });
}
