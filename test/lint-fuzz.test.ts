import t from 'tap';
import fc from 'fast-check';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { lintPaths } from '../src/lint/lint.js';
import { schemaProblems, SCHEMA_MESSAGES } from '../src/rules/schema-problems.js';
import { LINT_CHECKS } from '../checks/index.js';
import { compiledValidator, type ShippedSchema } from '../src/util/shipped-schemas.js';
import { reportSchemaErrors, ROOT, tempDir } from './helpers.js';

/** Repeatable: a failure prints its seed and path, and the same seed replays it. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 120);
const NOW = new Date('2026-11-22T12:00:00Z');

/** What lint must always do, whatever the files hold: finish, crash no check, locate every finding. */
function assertSane(report: CheckReport): void {
  const crashed = report.results.filter((r) => r.status === 'error');
  if (crashed.length)
    throw new Error(`a check crashed: ${crashed.map((r) => `${r.id}: ${r.findings.at(-1)?.message}`).join('; ')}`);
  for (const r of report.results) {
    for (const f of r.findings) {
      if (f.level !== 'info' && !f.location?.file) throw new Error(`${r.id}: a finding without a file: ${f.message}`);
      if (f.location?.file && f.location.line !== undefined && !(f.location.line >= 1))
        throw new Error(`${r.id}: line ${f.location.line}`);
    }
  }
  const problems = reportSchemaErrors(JSON.parse(JSON.stringify(report)));
  if (problems.length) throw new Error(`the report is not schema-valid: ${problems.slice(0, 3).join('; ')}`);
}

const json = fc.jsonValue({ maxDepth: 5 });
const name = fc.oneof(
  fc.constantFrom('get_note', 'a', '__proto__', 'constructor', 'has space', 'x'.repeat(200)),
  fc.string({ maxLength: 20 }),
);
const schemaLike = fc.oneof(
  json,
  fc.record(
    {
      type: fc.oneof(fc.constantFrom('object', 'array', 'string'), json),
      properties: fc.dictionary(name, json, { maxKeys: 4 }),
      required: fc.oneof(fc.array(name, { maxLength: 3 }), json),
      pattern: fc.oneof(fc.constantFrom('^(a+)+$', '(?=x)', '['), fc.string()),
    },
    { requiredKeys: [] },
  ),
);
/** Files shaped like each kind lint knows, with random holes and wrong types. */
const toolDescription = fc.record(
  {
    name: fc.oneof(name, json),
    description: fc.oneof(fc.string(), json),
    inputSchema: schemaLike,
    examples: fc.oneof(
      fc.array(fc.record({ description: json, input: json }, { requiredKeys: [] }), { maxLength: 3 }),
      json,
    ),
    error_guidance: json,
  },
  { requiredKeys: [] },
);
const toolCard = fc.record(
  {
    tool_card_version: fc.oneof(fc.constant('0.1'), json),
    tool: fc.record({ name: fc.oneof(name, json), version: json, server_id: json }, { requiredKeys: [] }),
    schema: fc.record({ input_schema_inline: schemaLike }, { requiredKeys: [] }),
    safety: fc.record(
      {
        side_effect_class: fc.oneof(fc.constantFrom('read', 'destructive'), json),
        human_approval_required: json,
        refusal_modes: json,
      },
      { requiredKeys: [] },
    ),
    performance: fc.record({ p50_latency_ms: json, p99_latency_ms: json }, { requiredKeys: [] }),
    tested_with: json,
    audit: json,
  },
  { requiredKeys: ['tool_card_version'] },
);
const dashdash = fc.record(
  {
    specVersion: fc.oneof(fc.constantFrom('0.2.0', '0.1.0', 'x'), json),
    identity: fc.oneof(fc.record({ name: json, description: json }, { requiredKeys: [] }), json),
    accessLevel: json,
    alternativeAccess: json,
  },
  { requiredKeys: ['specVersion', 'identity'] },
);
const toolsList = fc.record({ tools: fc.oneof(fc.array(fc.oneof(toolDescription, json), { maxLength: 5 }), json) });

let counter = 0;
/** A fresh folder with one file of each kind, written as given (objects as JSON, strings raw). */
function folderWith(files: Record<string, unknown>): string {
  const dir = join(fuzzRoot, `case-${++counter}`);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(
      join(dir, path),
      typeof content === 'string' ? content : (JSON.stringify(content, null, 2) ?? 'null'),
    );
  }
  return dir;
}

const fuzzRoot = tempDir();
t.teardown(() => rmSync(fuzzRoot, { recursive: true, force: true }));

t.test(
  'random files of every kind: lint finishes, no check crashes, every finding has a location',
  { timeout: 300_000 },
  async () => {
    await fc.assert(
      fc.asyncProperty(toolDescription, toolCard, dashdash, toolsList, json, async (desc, card, dd, list, anything) => {
        const dir = folderWith({
          'tool_descriptions/get_note.json': desc,
          'mcp-tools/get_note.json': card,
          'dashdash.json': dd,
          'tools-list.json': list,
          'other.json': anything,
        });
        assertSane(await lintPaths([dir], { cwd: fuzzRoot, now: NOW, checks: LINT_CHECKS }));
        rmSync(dir, { recursive: true, force: true });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  },
);

/** Real files written by the project: the mutations start from text that is nearly right. */
const SEEDS = [
  ...readdirSync(join(ROOT, 'reference-server', 'tool_descriptions')).map((f) => [
    'tool_descriptions/' + f,
    join(ROOT, 'reference-server', 'tool_descriptions', f),
  ]),
  ...readdirSync(join(ROOT, 'reference-server', '.well-known', 'mcp-tools')).map((f) => [
    'mcp-tools/' + f,
    join(ROOT, 'reference-server', '.well-known', 'mcp-tools', f),
  ]),
].map(([path, file]) => ({ path: path, text: readFileSync(file, 'utf8') }));

const edit = fc.record({
  at: fc.nat(),
  length: fc.nat({ max: 40 }),
  insert: fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom(
      '"',
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '\\',
      '\uFEFF',
      '\u0000',
      '"__proto__":1,',
      '"name":"other",',
      '\ud800',
    ),
  ),
});

t.test(
  'mutated real files: lint finishes, no check crashes, every finding has a location',
  { timeout: 300_000 },
  async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: SEEDS.length - 1 }),
        fc.array(edit, { minLength: 1, maxLength: 5 }),
        async (which, edits) => {
          const seed = SEEDS[which];
          let text = seed.text;
          for (const e of edits) {
            const at = e.at % (text.length + 1);
            text = text.slice(0, at) + e.insert + text.slice(at + e.length);
          }
          const dir = folderWith({ [seed.path]: text });
          assertSane(await lintPaths([dir], { cwd: fuzzRoot, now: NOW, checks: LINT_CHECKS }));
          rmSync(dir, { recursive: true, force: true });
        },
      ),
      { seed: SEED, numRuns: RUNS * 2 },
    );
  },
);

t.test('pathological files: very deep, very wide, binary, empty', async (t) => {
  const depth = 100_000;
  const dir = folderWith({
    'tool_descriptions/deep.json': `{"name":"deep","inputSchema":${'{"type":"object","properties":{"a":'.repeat(depth)}{}${'}}'.repeat(depth)}}`,
    'tool_descriptions/deep_array.json': `${'['.repeat(depth)}${']'.repeat(depth)}`,
    'tool_descriptions/wide.json': JSON.stringify({
      name: 'wide',
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`p${i}`, { type: 'string' }])),
      },
    }),
    'binary.json': '\u0000\u0001\u0002garbage\u00ff',
    'empty.json': '',
  });
  const report = await lintPaths([dir], { cwd: fuzzRoot, now: NOW, checks: LINT_CHECKS });
  t.doesNotThrow(() => assertSane(report));
  const said = report.results.flatMap((r) => r.findings.map((f) => `${f.location?.file}: ${f.message}`)).join('\n');
  t.match(said, /deep\.json: .*nested deeper than/i, 'the deep file is reported, not a crash');
});

const SCHEMAS: ShippedSchema[] = [
  'tool-description',
  'tool-card',
  'dashdash-server',
  'dashdash-tool',
  'dashdash-resource',
  'report',
  'config',
  'baseline',
];

t.test('every shipped schema takes any value; its errors always read as located messages', async () => {
  for (const schema of SCHEMAS) {
    const validate = compiledValidator(schema);
    fc.assert(
      fc.property(fc.oneof(json, toolDescription, toolCard, dashdash), (value) => {
        if (validate(value)) return;
        const problems = schemaProblems(schema, value);
        if (!problems.length) throw new Error(`${schema}: invalid, but no problem described`);
        for (const p of problems) {
          if (!(p.code in SCHEMA_MESSAGES) || typeof p.pointer !== 'string' || typeof p.args.field !== 'string')
            throw new Error(`${schema}: ${JSON.stringify(p)}`);
        }
      }),
      { seed: SEED, numRuns: RUNS * 3 },
    );
  }
});
