import type { ErrorObject } from 'ajv';
import { clip, asText } from '../text.js';

export interface SchemaProblem {
  /** JSON pointer of the value the problem is about (the parent object for a missing field). */
  pointer: string;
  message: string;
  /** A field the schema does not know: reported as a warning, never as an error. */
  unknownField?: string;
}

/** `/safety/pii_exposure` → `safety.pii_exposure`; `/tested_with/0/llm` → `tested_with[0].llm`. */
export function fieldNameOf(pointer: string): string {
  if (!pointer) return '(the top level)';
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
}

function shown(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const json = JSON.stringify(value) ?? asText(value);
  return `${typeof value === 'string' ? 'the string' : `the ${typeof value}`} ${clip(json, 60)}`;
}

const PATTERN_NAMES: Record<string, string> = {
  '^[a-z0-9-]{1,64}$': 'lowercase letters, digits and hyphens, at most 64 characters',
};

function valueAt(root: unknown, pointer: string): unknown {
  let v: unknown = root;
  for (const seg of pointer.split('/').slice(1)) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return v;
}

/**
 * Turns ajv's errors into sentences a person understands: which field, what was expected, what
 * was found. Errors inside an anyOf are folded into one message for the anyOf.
 */
export function describeSchemaErrors(errors: ErrorObject[] | null | undefined, root: unknown, basePointer = ''): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const list = errors ?? [];
  // Field names are shown from the file's top (dashdash.identity.name), pointers stay relative.
  const fieldName = (pointer: string) => fieldNameOf(basePointer + pointer);
  for (const e of list) {
    const field = fieldName(e.instancePath);
    const found = valueAt(root, e.instancePath);
    const p = e.params as Record<string, unknown>;
    if (/\/anyOf\/\d+\//.test(e.schemaPath) && list.some((o) => o.keyword === 'anyOf' && e.schemaPath.startsWith(o.schemaPath.replace(/\/anyOf$/, '/anyOf/')))) continue;
    switch (e.keyword) {
      case 'required':
        problems.push({ pointer: e.instancePath, message: `missing required field '${fieldName(`${e.instancePath}/${asText(p.missingProperty)}`)}'` });
        break;
      case 'additionalProperties': {
        const name = asText(p.additionalProperty);
        problems.push({ pointer: `${e.instancePath}/${name}`, message: `unknown field '${fieldName(`${e.instancePath}/${name}`)}'`, unknownField: name });
        break;
      }
      case 'enum':
        problems.push({ pointer: e.instancePath, message: `'${field}' must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}; found ${shown(found)}` });
        break;
      case 'const':
        problems.push({ pointer: e.instancePath, message: `'${field}' must be ${JSON.stringify(p.allowedValue)}; found ${shown(found)}` });
        break;
      case 'type':
        problems.push({ pointer: e.instancePath, message: `'${field}' must be ${article(asText(p.type))}; found ${shown(found)}` });
        break;
      case 'format':
        problems.push({ pointer: e.instancePath, message: `'${field}' must be a valid ${asText(p.format)}; found ${shown(found)}` });
        break;
      case 'pattern': {
        const pattern = asText(p.pattern);
        const what = PATTERN_NAMES[pattern] ?? (pattern.includes('\\d+)\\.') || pattern.startsWith('^(0|') ? 'a semantic version such as 1.4.0' : `the pattern ${pattern}`);
        problems.push({ pointer: e.instancePath, message: `'${field}' must be ${what}; found ${shown(found)}` });
        break;
      }
      case 'minLength':
        problems.push({ pointer: e.instancePath, message: `'${field}' must not be empty` });
        break;
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        problems.push({ pointer: e.instancePath, message: `'${field}' ${e.message}; found ${shown(found)}` });
        break;
      case 'anyOf': {
        const inner = list.filter((o) => o !== e && o.schemaPath.startsWith(e.schemaPath.replace(/\/anyOf$/, '/anyOf/')));
        const missing = inner.filter((o) => o.keyword === 'required').map((o) => `'${asText((o.params as Record<string, unknown>).missingProperty)}'`);
        const message = missing.length === inner.length && missing.length
          ? `'${field}' needs one of ${missing.join(' or ')}`
          : `'${field}' matches none of the allowed forms; found ${shown(found)}`;
        problems.push({ pointer: e.instancePath, message });
        break;
      }
      default:
        problems.push({ pointer: e.instancePath, message: `'${field}' ${e.message ?? 'is invalid'}` });
    }
  }
  return problems;
}

function article(type: string): string {
  const t = type.split(',').join(' or ');
  return /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`;
}
