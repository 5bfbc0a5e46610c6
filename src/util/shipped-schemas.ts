import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';

/** The JSON Schemas shipped in the package's schemas/ folder, by file stem. */
export type ShippedSchema =
  | 'tool-description'
  | 'tool-card'
  | 'dashdash-server'
  | 'dashdash-tool'
  | 'dashdash-resource'
  | 'report'
  | 'config'
  | 'baseline'
  | 'lock';

/** The validators compiled at build time: the shipped schemas and the meta-schemas of both dialects. */
export type CompiledValidator = ShippedSchema | 'meta-2020-12' | 'meta-draft-07';

const loaded = new Map<CompiledValidator, ValidateFunction>();

/**
 * A validator compiled at build time (schemas/generate-validators.mjs): no run compiles a shipped
 * schema or a meta-schema, and each file is read the first time it is asked for. The path stays
 * a literal the bundles can see (src/build/bundle-cli.mjs, bundle-action.mjs).
 */
export function compiledValidator(name: CompiledValidator): ValidateFunction {
  let validate = loaded.get(name);
  if (!validate) {
    const exported = createRequire(import.meta.url)(`../generated/validators/${name}.cjs`) as {
      default: ValidateFunction;
    };
    validate = exported.default;
    loaded.set(name, validate);
  }
  return validate;
}
