import { defineCheck } from '../src/check.js';
import type { LiveContext } from '../src/context.js';
import { fetchDescriptions } from '../src/pd/fetch.js';
import { isPlainObject } from '../src/pd/payload.js';
import type { Exchange, JsonObject } from '../src/target/types.js';
import type { compileSchema as CompileSchema, describeErrors as DescribeErrors, unappliedPatterns as UnappliedPatterns } from '../src/schema.js';
import { clip, listing } from '../src/text.js';

let schemas: { compileSchema: typeof CompileSchema; describeErrors: typeof DescribeErrors; unappliedPatterns: typeof UnappliedPatterns };

/** Tools are fetched in groups of this many, to keep URIs a sane length. */
const GROUP = 50;

export default defineCheck<LiveContext>({
  id: 'pd-full-descriptions',
  title: 'The resource returns exactly the requested tools, each with a complete input schema and valid examples',
  spec: {
    doc: 'progressive-disclosure', section: '4.4', level: 'MUST', criterion: 4,
    requirements: ['PD-3.2-b', 'PD-3.2-c', 'PD-3.2-d', 'PD-4.4-a', 'PD-4.4-b', 'PD-4.4-c'],
  },
  needs: 'session',
  async run(ctx) {
    const base = ctx.resourceUriOrFail('full descriptions');
    // ajv is loaded here, not at start-up: only this check compiles schemas (~80 ms saved per run).
    schemas = await import('../src/schema.js');
    const names = ctx.discovery.toolNames.filter((n) => !n.includes(','));
    if (names.length === 0) ctx.skip('tools/list returned no tools, so there is no description to fetch.');
    for (let i = 0; i < names.length; i += GROUP) {
      const group = names.slice(i, i + GROUP);
      const got = await fetchDescriptions(ctx.reader(), base, group);
      const transcript = [got.exchange];
      if (!got.entries) {
        ctx.fail(`Fetching the full descriptions of ${listing(group, 3)} failed: ${got.problem}.`, {
          transcript, hint: 'Answer resources/read of ?tools=a,b with JSON text: an object mapping each name to its description.',
        });
        continue;
      }
      const extra = Object.keys(got.entries).filter((k) => !group.includes(k));
      if (extra.length) {
        ctx.fail(`The response has keys that were not requested: ${listing(extra)}. §4.4: only the requested tools, and no instructional preamble (guidance belongs in the resource description).`, {
          transcript, hint: 'Return an object whose keys are exactly the requested tool names.',
        });
      }
      for (const name of group) checkEntry(ctx, name, got.entries[name], transcript);
    }
  },
});

function checkEntry(ctx: LiveContext, name: string, entry: unknown, transcript: Exchange[]): void {
  const location = { tool: name };
  if (!isPlainObject(entry)) {
    ctx.fail(`The response has no description for the requested tool '${name}'.`, {
      location, transcript, hint: "Return { \"<name>\": { name, description, inputSchema, examples } } for every requested tool.",
    });
    return;
  }
  if (entry.name !== name) {
    ctx.fail(`The description under '${name}' has name ${JSON.stringify(entry.name ?? null)}; it must repeat the tool name.`, {
      location: { ...location, pointer: `/${name}/name` }, transcript, hint: 'Set "name" to the exact tools/list name.',
    });
  }
  if (typeof entry.description !== 'string' || !entry.description.trim()) {
    ctx.fail(`The full description of '${name}' has no "description" text.`, {
      location: { ...location, pointer: `/${name}/description` }, transcript, hint: 'Add the detailed description the LLM needs to use the tool.',
    });
  }
  const schema = entry.inputSchema;
  if (!isPlainObject(schema)) {
    ctx.fail(`The full description of '${name}' has no inputSchema object; §3.2 requires the complete input schema.`, {
      location: { ...location, pointer: `/${name}/inputSchema` }, transcript, hint: 'Add the complete JSON Schema of the arguments as "inputSchema".',
    });
    return;
  }
  const compiled = schemas.compileSchema(schema);
  if (compiled.problem) {
    ctx.fail(`The inputSchema of '${name}' is not a valid JSON Schema (${compiled.dialect}): ${clip(compiled.problem, 200)}.`, {
      location: { ...location, pointer: `/${name}/inputSchema` }, transcript, hint: 'Fix the schema; validate it with any JSON Schema validator.',
    });
  }
  if (schema.type !== 'object') {
    ctx.fail(`The inputSchema of '${name}' has type ${JSON.stringify(schema.type ?? null)}; tool arguments are an object, so it must be "object".`, {
      location: { ...location, pointer: `/${name}/inputSchema/type` }, transcript, hint: 'Set "type": "object" at the top of the inputSchema.',
    });
  }
  if (!isPlainObject(schema.properties) || Object.keys(schema.properties).length === 0) {
    ctx.warn(`The full inputSchema of '${name}' describes no properties; if the tool takes arguments, stage 2 is where they are described.`, {
      location, hint: 'Describe every argument under "properties" (or, for a tool without arguments, set "additionalProperties": false).',
    });
  }
  checkExamples(ctx, name, entry, compiled.validate, transcript);
  for (const pattern of schemas.unappliedPatterns(schema)) {
    ctx.info(`The inputSchema of '${name}' has the pattern ${JSON.stringify(clip(pattern, 80))}, which uses lookaround or backreferences; it has no linear-time form, so examples were not checked against it.`, { location });
  }
  if (!('error_guidance' in entry)) {
    ctx.warn(`The full description of '${name}' has no error_guidance (§3.2 SHOULD).`, {
      location, hint: 'Add "error_guidance": { "common_errors": [{ "error", "cause", "solution" }] }.',
    });
  }
}

function checkExamples(ctx: LiveContext, name: string, entry: JsonObject, validate: ReturnType<typeof CompileSchema>['validate'], transcript: Exchange[]): void {
  const examples = entry.examples;
  if (!Array.isArray(examples) || examples.length === 0) {
    ctx.warn(`The full description of '${name}' has no examples (§3.2 SHOULD).`, {
      location: { tool: name }, hint: 'Add "examples": [{ "description", "input": { … } }] with inputs that match the schema.',
    });
    return;
  }
  examples.forEach((example, i) => {
    const pointer = `/${name}/examples/${i}`;
    if (!isPlainObject(example) || !isPlainObject(example.input)) {
      ctx.fail(`Example ${i + 1} of '${name}' has no "input" object.`, { location: { tool: name, pointer }, transcript, hint: 'Give each example an "input" object of call arguments.' });
      return;
    }
    if (validate && !validate(example.input)) {
      ctx.fail(`Example ${i + 1} of '${name}' does not match its own inputSchema: ${schemas.describeErrors(validate.errors).slice(0, 3).join('; ')}.`, {
        location: { tool: name, pointer: `${pointer}/input` }, transcript, hint: 'Fix the example or the schema: an LLM copies examples literally.',
      });
    }
  });
}
