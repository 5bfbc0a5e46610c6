import type { ValidateFunction } from 'ajv';
import * as compiled from '../generated/validators-shipped.js';

/** The JSON Schemas shipped in the package's schemas/ folder, by file stem. */
export type ShippedSchema = 'tool-description' | 'tool-card' | 'dashdash-server' | 'dashdash-tool' | 'dashdash-resource' | 'report' | 'config' | 'baseline';

/**
 * The validator of a shipped schema, compiled at build time (schemas/generate-validators.mjs):
 * no run compiles a shipped schema.
 */
export function shippedValidator(name: ShippedSchema): ValidateFunction {
  return (compiled as unknown as Record<string, ValidateFunction>)[name.replace(/-/g, '_')]!;
}
