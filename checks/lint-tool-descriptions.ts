import { dirname } from 'node:path';
import { defineCheck } from '../src/check.js';
import type { LintContext } from '../src/lint/context.js';
import { stem, type LintFile } from '../src/lint/files.js';
import { isPlainObject } from '../src/pd/payload.js';
import { quickValidate, schemaProblem, unappliedPatterns } from '../src/schema.js';
import { clip } from '../src/text.js';
import { toolNameProblem } from '../src/tool-names.js';

export default defineCheck<LintContext>({
  id: 'lint-tool-descriptions',
  title: 'Each tool description is named after its file, has a valid object inputSchema, and examples that match it',
  spec: {
    doc: 'progressive-disclosure', section: '3.2', level: 'MUST',
    requirements: ['PD-3.2-b', 'PD-3.2-c', 'PD-3.2-d', 'PD-7.1-a', 'MCP-name-a', 'MCP-name-c', 'MCP-name-e', 'MCP-input-a'],
  },
  needs: 'folder',
  async run(ctx) {
    const files = ctx.ofKind('tool-description');
    const byFolderAndName = new Map<string, LintFile[]>();
    for (const file of files) {
      const d = file.source!.value as Record<string, unknown>;
      if (typeof d.name === 'string') {
        checkName(ctx, file, d.name);
        const key = `${dirname(file.path)}\0${d.name}`;
        byFolderAndName.set(key, [...(byFolderAndName.get(key) ?? []), file]);
      }
      const schema = d.inputSchema;
      if (!isPlainObject(schema)) continue; // lint-schema reports a missing or non-object inputSchema
      // Meta-schema check plus interpreted example validation: no per-schema code generation,
      // which is what keeps a folder of 10,000 distinct schemas fast.
      const c = schemaProblem(schema);
      checkSchema(ctx, file, schema, c);
      checkExamples(ctx, file, d, c.problem ? undefined : schema);
      if (!('error_guidance' in d)) {
        ctx.warn('No error_guidance: full descriptions SHOULD document errors (§3.2).', {
          location: ctx.at(file), hint: 'Add "error_guidance": { "common_errors": [{ "error", "cause", "solution" }] }.',
        });
      }
    }
    for (const group of byFolderAndName.values()) {
      if (group.length < 2) continue;
      for (const file of group.slice(1)) {
        ctx.fail(`Two tool descriptions in one folder are named '${(file.source!.value as { name: string }).name}': ${group[0]!.display} and ${file.display}.`, {
          location: ctx.at(file, '/name'), hint: 'Tool names must be unique within a server; rename or remove one.',
        });
      }
    }
  },
});

function checkName(ctx: LintContext, file: LintFile, name: string): void {
  if (name !== stem(file)) {
    ctx.fail(`The description is named '${clip(name, 80)}' but its file is ${stem(file)}.json; servers load tool_descriptions/<name>.json (§7.1).`, {
      location: ctx.at(file, '/name'), hint: `Rename the file to ${name}.json, or set "name" to "${stem(file)}".`,
    });
  }
  const problem = toolNameProblem(name);
  if (problem) {
    ctx.warn(`The tool name '${clip(name, 80)}' ${problem} (MCP tool-name rules).`, { location: ctx.at(file, '/name'), hint: 'Use e.g. snake_case names of letters, digits, _, - and .' });
  }
}

function checkSchema(ctx: LintContext, file: LintFile, schema: Record<string, unknown>, c: ReturnType<typeof schemaProblem>): void {
  if (c.problem) {
    ctx.fail(`inputSchema is not a valid JSON Schema (${c.dialect}): ${clip(c.problem, 200)}.`, {
      location: ctx.at(file, '/inputSchema'), hint: 'Fix the schema; $schema selects draft-07, otherwise 2020-12 applies.',
    });
  }
  if (schema.type !== 'object') {
    ctx.fail(`inputSchema has type ${JSON.stringify(schema.type ?? null)}; tool arguments are an object, so it must be "object".`, {
      location: ctx.at(file, schema.type === undefined ? '/inputSchema' : '/inputSchema/type'), hint: 'Set "type": "object".',
    });
  }
  if (Array.isArray(schema.required)) {
    const props = isPlainObject(schema.properties) ? schema.properties : {};
    schema.required.forEach((name, i) => {
      if (typeof name === 'string' && !(name in props)) {
        ctx.fail(`inputSchema requires '${clip(name, 60)}', which is not among its properties.`, {
          location: ctx.at(file, `/inputSchema/required/${i}`), hint: `Describe '${name}' under "properties", or drop it from "required".`,
        });
      }
    });
  }
}

function checkExamples(ctx: LintContext, file: LintFile, d: Record<string, unknown>, schema: Record<string, unknown> | undefined): void {
  if (!Array.isArray(d.examples) || d.examples.length === 0) {
    ctx.warn('No examples: full descriptions SHOULD include usage examples (§3.2).', {
      location: ctx.at(file), hint: 'Add "examples": [{ "description", "input": { … } }].',
    });
    return;
  }
  for (const pattern of schema ? unappliedPatterns(schema) : []) {
    ctx.info(`The inputSchema has the pattern ${JSON.stringify(clip(pattern, 80))}, which uses lookaround or backreferences; it has no linear-time form, so examples were not checked against it.`, {
      location: ctx.at(file, '/inputSchema'),
    });
  }
  d.examples.forEach((example, i) => {
    if (!isPlainObject(example) || !isPlainObject(example.input) || !schema) return; // shape errors: lint-schema
    const problems = quickValidate(schema, example.input);
    if (problems.length) {
      ctx.fail(`Example ${i + 1} does not match the inputSchema: ${problems.slice(0, 3).join('; ')}.`, {
        location: ctx.at(file, `/examples/${i}/input`), hint: 'Fix the example or the schema: an LLM copies examples literally.',
      });
    }
  });
}
