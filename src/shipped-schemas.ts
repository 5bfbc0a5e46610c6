import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { addFormats } from './schema.js';
import { PACKAGE_ROOT } from './version.js';


/** The JSON Schemas shipped in the package's schemas/ folder, by file stem. */
export type ShippedSchema = 'tool-description' | 'tool-card' | 'dashdash-server' | 'dashdash-tool' | 'dashdash-resource' | 'report' | 'config' | 'baseline';

const NAMES: ShippedSchema[] = ['dashdash-tool', 'dashdash-server', 'dashdash-resource', 'tool-description', 'tool-card', 'report', 'config', 'baseline'];

let ajv: Ajv2020 | undefined;
const validators = new Map<ShippedSchema, ValidateFunction>();

/** A compiled validator of a shipped schema (all compiled together, so their $refs resolve). */
export function shippedValidator(name: ShippedSchema): ValidateFunction {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    for (const n of NAMES) ajv.addSchema(JSON.parse(readFileSync(join(PACKAGE_ROOT, 'schemas', `${n}.schema.json`), 'utf8')), n);
  }
  let validate = validators.get(name);
  if (!validate) {
    validate = ajv.getSchema(name)!;
    validators.set(name, validate);
  }
  return validate;
}
