import { createRequire } from 'node:module';
import { isPlainObject } from '../protocol/payload.js';
import { quickValidate } from '../util/schema.js';
import { REVIEW } from './review.js';

/** What `init` writes in a description's `examples`: inputs that validate against its schema. */
export interface GeneratedExample {
  description: string;
  input: Record<string, unknown>;
}


type Faker = { generate(schema: unknown): unknown; option(options: Record<string, unknown>): void };
let faker: Faker | undefined;

/**
 * json-schema-faker, deterministic (a seeded generator: two runs of init write the same files) and
 * bounded (a server's schema is not trusted: short strings, few items, no remote $ref, shallow).
 */
function fakerFor(seed: number): Faker {
  faker ??= (createRequire(import.meta.url)('json-schema-faker') as { JSONSchemaFaker: Faker }).JSONSchemaFaker;
  let state = seed % 2147483647 || 1;
  faker.option({
    random: () => {
      state = (state * 16807) % 2147483647;
      return (state - 1) / 2147483646;
    },
    useExamplesValue: true,
    useDefaultValue: true,
    failOnInvalidTypes: false,
    failOnInvalidFormat: false,
    ignoreMissingRefs: true,
    maxItems: 3,
    maxLength: 24,
    maxRegexRepetition: 8,
    refDepthMax: 3,
    fillProperties: false,
    alwaysFakeOptionals: false,
    requiredOnly: false,
  });
  return faker;
}

/**
 * Up to two examples: the required arguments only, and every argument (when the tool has optional
 * ones). Each is kept only if it validates against the schema — a generator that misses a
 * constraint must not teach a model a wrong call.
 */
export function generateExamples(name: string, schema: unknown): { examples: GeneratedExample[]; dropped: number } {
  if (!isPlainObject(schema)) return { examples: [], dropped: 0 };
  const properties = isPlainObject(schema.properties) ? Object.keys(schema.properties) : [];
  const required = Array.isArray(schema.required) ? schema.required.length : 0;
  const kinds: Array<{ label: string; options: Record<string, unknown> }> = [
    { label: required ? 'only the required arguments' : 'no arguments', options: { requiredOnly: true, alwaysFakeOptionals: false } },
  ];
  if (properties.length > required) kinds.push({ label: 'every argument', options: { requiredOnly: false, alwaysFakeOptionals: true } });
  const examples: GeneratedExample[] = [];
  let dropped = 0;
  for (const [i, kind] of kinds.entries()) {
    const jsf = fakerFor(hash(`${name}#${i}`));
    jsf.option(kind.options);
    let input: unknown;
    try {
      // The faker writes into the schema it is given: never the server's own (a frozen fact of the run).
      input = jsf.generate(structuredClone(schema));
    } catch {
      input = undefined;
    }
    if (!isPlainObject(input) || quickValidate(schema, input).length) {
      dropped++;
      continue;
    }
    examples.push({ description: `${REVIEW} generated from the inputSchema (${kind.label}); replace the values with a realistic call`, input });
  }
  return { examples, dropped };
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
