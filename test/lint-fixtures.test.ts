import t from 'tap';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LINT_CHECKS } from '../checks/index.js';
import type { CheckReport } from '../src/generated/report.js';
import { lintPaths as lintWith } from '../src/lint/lint.js';
import { ROOT, reportSchemaErrors } from './helpers.js';

const FOLDERS = join(ROOT, 'fixtures', 'folders');

/** The engine's lint with the shipped lint checks. */
const lintPaths = (paths: string[], options: { cwd: string; now: Date }) =>
  lintWith(paths, { ...options, checks: LINT_CHECKS });
/** Data written by others (the upstream Tool Cards, saved tools/list files), beside the checkout. */
const EXTERNAL = join(ROOT, '..', 'shared', 'external');
const externalMissing = existsSync(EXTERNAL) ? false : `the shared corpus is not beside this checkout (${EXTERNAL})`;

/** Fixed "now" for the 90-day Tool Card rule. */
const NOW = new Date('2026-11-22T12:00:00Z');

/**
 * `check level file:line code [message-pattern]` — every finding of a fixture folder except info
 * lines. The code is what the finding is; the pattern, where given, pins the data in its message.
 */
type Expected = [string, 'error' | 'warning', string, string, RegExp?];

const EXPECTED: Record<string, Expected[]> = {
  'json-syntax': [
    ['lint-json-syntax', 'warning', 'bom.json:1', 'byte-order-mark'],
    [
      'lint-json-syntax',
      'error',
      'duplicate-key.json:3',
      'duplicate-key',
      /key 'tools' appears twice .*first at line 2/,
    ],
    [
      'lint-json-syntax',
      'error',
      'trailing-comma.json:4',
      'syntax-error',
      /Not valid JSON: a property name .* was expected/,
    ],
  ],
  // Every form dashdash metadata is saved in is recognised and validated: { "dashdash": … }, and a
  // bare object in a file named dashdash*.json (even without identity, which it must have).
  'dashdash-forms': [
    [
      'lint-schema',
      'error',
      'wrapped.json:5',
      'wrong-value',
      /'dashdash.accessLevel' must be one of "read", "interact", "full"; found the string "admin"/,
    ],
    ['lint-schema', 'error', 'dashdash.json:1', 'missing-field', /required field 'identity'/],
    // DD-3.1.2-e: says what, not when.
    ['lint-schema', 'error', 'dashdash-no-trigger.json:3', 'no-trigger-phrases', /no trigger phrase/],
  ],
  'unknown-kind': [
    ['lint-file-kind', 'warning', 'mystery.json:1', 'unknown-kind', /Cannot tell what .*mystery.json is/],
  ],
  'schema-errors': [
    ['lint-schema', 'error', 'card.json:2', 'wrong-value', /'tool_card_version' must be "0.1"; found the number 0.1/],
    [
      'lint-schema',
      'error',
      'card.json:6',
      'bad-pattern',
      /'tool.version' must be a semantic version such as 1.4.0; found the string "1.0"/,
    ],
    [
      'lint-schema',
      'error',
      'card.json:7',
      'bad-format',
      /'tool.mcp_server_uri' must be a valid uri; found the string "not a uri"/,
    ],
    [
      'lint-schema',
      'error',
      'card.json:20',
      'out-of-range',
      /'tested_with\[0\].pass_rate' must be <= 1; found the number 98/,
    ],
    [
      'lint-schema',
      'error',
      'card.json:20',
      'bad-format',
      /'tested_with\[0\].tested_at' must be a valid date-time; found the string "yesterday"/,
    ],
    // One Tool Card field of each kind in the wrong shape (TC-tool.description, TC-schema.input_schema_uri,
    // TC-safety.*).
    [
      'lint-schema',
      'error',
      'card-safety.json:8',
      'wrong-type',
      /'tool.description' must be a string; found an object/,
    ],
    [
      'lint-schema',
      'error',
      'card-safety.json:10',
      'bad-format',
      /'schema.input_schema_uri' must be a valid uri; found the string "schemas\/delete note.json"/,
    ],
    [
      'lint-schema',
      'error',
      'card-safety.json:13',
      'wrong-type',
      /'safety.reversible' must be a boolean; found the string "no"/,
    ],
    [
      'lint-schema',
      'error',
      'card-safety.json:14',
      'wrong-type',
      /'safety.rate_limited' must be a boolean; found the number 1/,
    ],
    [
      'lint-schema',
      'error',
      'card-safety.json:17',
      'wrong-type',
      /'safety.human_approval_required' must be a boolean; found the string "yes"/,
    ],
    [
      'lint-schema',
      'error',
      'card-safety.json:18',
      'wrong-type',
      /'safety.refusal_modes' must be an array; found the string/,
    ],
    [
      'lint-schema',
      'error',
      'card-safety.json:19',
      'wrong-type',
      /'safety.external_systems\[0\]' must be a string; found an object/,
    ],
    ['lint-toolcard-level', 'error', 'card-safety.json:17', 'destructive-without-approval'],
    [
      'lint-schema',
      'error',
      'initialize.json:7',
      'bad-pattern',
      /'dashdash.identity.name' must be lowercase letters, digits and hyphens/,
    ],
    [
      'lint-schema',
      'error',
      'initialize.json:8',
      'wrong-value',
      /'dashdash.accessLevel' must be one of "read", "interact", "full"; found the string "admin"/,
    ],
    [
      'lint-schema',
      'error',
      'initialize.json:9',
      'missing-field',
      /required field 'dashdash.alternativeAccess.webUrl'/,
    ],
    ['lint-schema', 'error', 'initialize.json:6', 'spec-version-too-old', /specVersion 0.1.0 is older than 0.2.0/],
    ['lint-schema', 'warning', 'initialize.json:5', 'recommended-field-missing', /no 'install'/],
    ['lint-schema', 'warning', 'initialize.json:5', 'recommended-field-missing', /no 'requires'/],
    ['lint-schema', 'warning', 'initialize.json:5', 'recommended-field-missing', /no 'rateLimit'/],
    ['lint-schema', 'warning', 'initialize.json:5', 'recommended-field-missing', /no 'homepage'/],
    ['lint-schema', 'warning', 'tool_descriptions/shapeless.json:7', 'unknown-field', /field 'summary'/],
    [
      'lint-schema',
      'error',
      'tool_descriptions/shapeless.json:3',
      'wrong-type',
      /'description' must be a string; found the number 42/,
    ],
    [
      'lint-schema',
      'error',
      'tool_descriptions/shapeless.json:5',
      'missing-field',
      /required field 'examples\[0\].input'/,
    ],
  ],
  'tool-descriptions': [
    [
      'lint-tool-descriptions',
      'error',
      'tool_descriptions/broken.json:4',
      'input-schema-invalid',
      /not a valid JSON Schema \(2020-12\).*minimum must be number/,
    ],
    ['lint-tool-descriptions', 'error', 'tool_descriptions/broken.json:5', 'input-schema-not-object', /type "array"/],
    [
      'lint-tool-descriptions',
      'error',
      'tool_descriptions/broken.json:7',
      'required-not-in-properties',
      /requires 'cursor'/,
    ],
    ['lint-tool-descriptions', 'warning', 'tool_descriptions/broken.json:1', 'no-error-guidance'],
    [
      'lint-tool-descriptions',
      'error',
      'tool_descriptions/copy.json:2',
      'name-mismatch',
      /named 'good', but it is the description of 'copy' \(its file is copy.json\)/,
    ],
    [
      'lint-tool-descriptions',
      'warning',
      'tool_descriptions/has space.json:2',
      'name-invalid',
      /'has space' contains a space/,
    ],
    [
      'lint-tool-descriptions',
      'error',
      'tool_descriptions/has space.json:5',
      'example-invalid',
      /Example 1 does not match the inputSchema: \/n: Instance type "string" is invalid. Expected "integer"/,
    ],
    [
      'lint-tool-descriptions',
      'error',
      'tool_descriptions/good.json:2',
      'duplicate-in-folder',
      /in one folder are named 'good'/,
    ],
    // MCP-input-c: no parameters, yet any object accepted; MCP-input-b: a draft-07 tuple read as 2020-12.
    [
      'lint-tool-descriptions',
      'warning',
      'tool_descriptions/ping.json:4',
      'input-schema-no-properties',
      /"additionalProperties":false/,
    ],
    [
      'lint-tool-descriptions',
      'error',
      'tool_descriptions/range.json:4',
      'input-schema-invalid',
      /schema is invalid: \/properties\/bounds\/items must be object,boolean\.$/,
    ], // once, not once per branch ajv tried
    [
      'lint-tool-descriptions',
      'warning',
      'tool_descriptions/range.json:6',
      'draft07-construct',
      /"items" is an array: a tuple is "prefixItems" there/,
    ],
  ],
  secrets: [
    [
      'lint-no-secrets',
      'warning',
      'tool_descriptions/leaky.json:3',
      'credential',
      /an AWS access key id \(AKIA…GH \(20 characters\)\)/,
    ],
    ['lint-no-secrets', 'warning', 'tool_descriptions/leaky.json:3', 'disclosure', /an absolute file path/],
    ['lint-no-secrets', 'warning', 'tool_descriptions/leaky.json:3', 'disclosure', /an internal host name/],
    ['lint-no-secrets', 'warning', 'tool_descriptions/leaky.json:5', 'credential', /a private key/],
  ],
  'toolcard-levels': [
    [
      'lint-toolcard-level',
      'warning',
      'mcp-tools/level_three.json:12',
      'p50-above-p99',
      /\(900\) is above p99_latency_ms \(300\)/,
    ],
    ['lint-toolcard-level', 'error', 'mcp-tools/wipe.json:11', 'destructive-without-approval'],
  ],
  'toolcard-consistency': [
    [
      'lint-toolcard-consistency',
      'error',
      'mcp-tools/get_note.json:4',
      'input-schema-drift',
      /get_note.json's inputSchema at '\/properties\/id\/type'/,
    ],
    [
      'lint-toolcard-consistency',
      'error',
      'mcp-tools/wrong_name.json:3',
      'card-name-mismatch',
      /describes 'right_name', but it is the card of 'wrong_name'/,
    ],
  ],
  // What `mcp-pd-check init` leaves for a human, and the checker's own config, validated as one.
  'needs-review': [
    [
      'lint-needs-review',
      'warning',
      'tool_descriptions/get_note.json:12',
      'needs-review',
      /"REVIEW: generated from the inputSchema .*" \(\/examples\/0\/description\)/,
    ],
    [
      'lint-needs-review',
      'warning',
      'tool_descriptions/get_note.json:18',
      'needs-review',
      /\(\/usage_guidance\/important_notes\/0\)/,
    ],
    [
      'lint-needs-review',
      'warning',
      'mcp-pd-check.config.json:5',
      'needs-review',
      /the command that starts your server.*\(\/command\/1\)/,
    ],
    [
      'lint-schema',
      'error',
      'bad-config/mcp-pd-check.config.json:3',
      'out-of-range',
      /'sessions' must be >= 2; found the number 1 \(the config schema\)/,
    ],
    [
      'lint-schema',
      'error',
      'bad-config/mcp-pd-check.config.json:4',
      'wrong-value',
      /'failOn' must be one of "error", "warning", "never"/,
    ],
  ],
  'tools-list': [
    ['lint-tools-list', 'warning', 'saved.json:5', 'name-duplicate', /'search' is listed twice/],
    ['lint-tools-list', 'warning', 'saved.json:6', 'name-invalid', /'send mail' contains a space/],
    ['lint-tools-list', 'error', 'saved.json:7', 'no-input-schema', /'no_schema'/],
    ['lint-tools-list', 'error', 'saved.json:8', 'input-schema-not-object', /'wrong_type'/],
    ['lint-tools-list', 'error', 'saved.json:9', 'tool-without-name', /entry 5/],
    // The selection rule: "Searches." and "Sends mail." say nothing the names do not.
    ['lint-tools-list', 'warning', 'saved.json:5', 'restates-name', /'search'/],
    ['lint-tools-list', 'warning', 'saved.json:6', 'restates-name', /'send mail'/],
  ],
};

async function lintFolder(name: string): Promise<CheckReport> {
  return lintPaths([join('fixtures', 'folders', name)], { cwd: ROOT, now: NOW });
}

function findings(report: CheckReport, folder: string) {
  const prefix = `fixtures/folders/${folder}/`;
  return report.results.flatMap((r) =>
    r.findings
      .filter((f) => f.level !== 'info')
      .map((f) => ({
        check: r.id,
        level: f.level,
        where: `${f.location?.file?.replace(prefix, '')}:${f.location?.line}`,
        code: f.code,
        message: f.message,
        hint: f.hint,
        pointer: f.location?.pointer,
      })),
  );
}

t.test('every lint check has a fixture folder that triggers it', async (t) => {
  const triggered = new Set(
    Object.values(EXPECTED)
      .flat()
      .map(([check]) => check),
  );
  for (const check of LINT_CHECKS)
    t.ok(triggered.has(check.id), `${check.id} is exercised by a fixtures/folders/ situation`);
  t.same(readdirSync(FOLDERS).sort(), Object.keys(EXPECTED).sort(), 'every fixture folder has expectations');
});

for (const [folder, expected] of Object.entries(EXPECTED)) {
  t.test(`fixtures/folders/${folder} gives exactly its expected findings`, async (t) => {
    const report = await lintFolder(folder);
    t.same(reportSchemaErrors(report), [], 'report valid against the schema');
    t.equal(report.target.kind, 'files');
    const got = findings(report, folder);
    t.equal(
      got.length,
      expected.length,
      `${expected.length} findings: ${JSON.stringify(
        got.map((g) => `${g.check} ${g.where} ${g.code} ${g.message}`),
        null,
        1,
      )}`,
    );
    for (const [check, level, where, code, pattern] of expected) {
      const match = got.find(
        (g) =>
          g.check === check &&
          g.level === level &&
          g.where === where &&
          g.code === code &&
          (!pattern || pattern.test(g.message)),
      );
      t.ok(match, `${check} ${level} at ${where}: ${code} ${pattern ?? ''}`);
      if (match) t.ok(match.hint, 'with a fix hint');
    }
    for (const g of got) t.match(g.where, /^[^:]+:\d+$/, 'every finding has a file and a line');
  });
}

t.test('Tool Card levels: L1, L2, L3 and the 90-day window', async (t) => {
  const report = await lintFolder('toolcard-levels');
  const levels = Object.fromEntries(
    report.results
      .find((r) => r.id === 'lint-toolcard-level')!
      .findings.filter((f) => f.code === 'card-level')
      .map((f) => [f.location!.file!.split('/').pop(), f.args.level]),
  );
  t.same(levels, { 'level_one.json': 'L1', 'level_two.json': 'L2', 'level_three.json': 'L3', 'wipe.json': 'L2' });
  const later = await lintPaths([join('fixtures', 'folders', 'toolcard-levels')], {
    cwd: ROOT,
    now: new Date('2027-03-01T00:00:00Z'),
  });
  const three = later.results
    .find((r) => r.id === 'lint-toolcard-level')!
    .findings.find((f) => f.location?.file?.endsWith('level_three.json') && f.code === 'card-level');
  t.equal(three?.args.level, 'L2', 'a test older than 90 days no longer counts');
});

t.test("the reference server's tool_descriptions lint clean", async (t) => {
  const report = await lintPaths(['reference-server/tool_descriptions'], { cwd: ROOT, now: NOW });
  // What has nothing to read in a folder of descriptions (cards, a saved list) is skipped, saying so.
  for (const r of report.results)
    t.equal(
      r.status,
      r.findings.some((f) => f.code === 'nothing-to-lint') ? 'skip' : 'pass',
      `${r.id}: ${JSON.stringify(r.findings)}`,
    );
  t.same(
    report.results
      .filter((r) => r.status === 'skip')
      .map((r) => r.id)
      .sort(),
    ['lint-toolcard-consistency', 'lint-toolcard-level', 'lint-tools-list'],
  );
});

t.test('the upstream Tool Cards are each reported with field-level reasons', { skip: externalMissing }, async (t) => {
  const report = await lintPaths([join(EXTERNAL, 'toolcards')], { cwd: ROOT, now: NOW });
  const all = report.results.flatMap((r) => r.findings.map((f) => ({ id: r.id, ...f })));
  const about = (file: string) =>
    all.filter((f) => f.location?.file?.endsWith(file) && f.level !== 'info').map((f) => f.message);
  t.match(
    about('malformed-pii-exposure.json').join('\n'),
    /'safety.pii_exposure' must be one of .*found the string "extreme"/,
  );
  t.match(
    about('malformed-side-effect-class.json').join('\n'),
    /'safety.side_effect_class' must be one of .*"kinda-mutating"/,
  );
  t.match(
    about('schema-without-input-spec.json').join('\n'),
    /'schema' needs one of 'input_schema_inline' or 'input_schema_uri'/,
  );
  t.match(
    about('destructive-without-approval.json').join('\n'),
    /'destructive' but human_approval_required is not true/,
  );
  t.match(about('maximal-all-blocks.json').join('\n'), /unknown field 'tested_with\[0\].model'/i);
  t.match(about('external-email.json').join('\n'), /unknown field 'performance.p95_latency_ms'/i);
  t.match(about('read-only-search.json').join('\n'), /unknown field 'audit.log_locations'/i);
  t.match(about('billing-lookup.json').join('\n'), /unknown field 'cost'/i);
  for (const f of all.filter((f) => f.level !== 'info'))
    t.ok(f.location?.line && f.location.pointer !== undefined, `located: ${f.message}`);
  const levels = all.filter((f) => f.code === 'card-level').length;
  t.equal(levels, 13, 'a level for each of the 13 cards');
});

t.test(
  'the nine saved tools/list files lint without a crash and report tokens per tool',
  { skip: externalMissing },
  async (t) => {
    const dir = join(EXTERNAL, 'tools-list');
    const report = await lintPaths([dir], { cwd: ROOT, now: NOW });
    t.equal(report.summary.errors, 0, 'no check broke');
    const tl = report.results.find((r) => r.id === 'lint-tools-list')!;
    const perFile = tl.findings.filter((f) => f.code === 'file-tokens');
    t.equal(perFile.length, readdirSync(dir).length, 'a total for every file');
    const perTool = tl.findings.filter((f) => f.code === 'tool-tokens');
    t.equal(
      perTool.length,
      perFile.reduce((n, f) => n + (f.args.tools as number), 0),
      'a count for every tool',
    );
    for (const f of perTool) {
      t.ok((f.args.tokens as number) > 0);
      t.equal(f.args.encoding, 'o200k_base');
    }
  },
);

t.test('a malformed file never stops the lint of the others', async (t) => {
  const report = await lintPaths(['fixtures/folders/json-syntax', 'reference-server/tool_descriptions'], {
    cwd: ROOT,
    now: NOW,
  });
  t.equal(report.summary.errors, 0);
  t.equal(report.results.find((r) => r.id === 'lint-json-syntax')!.status, 'fail');
  t.equal(
    report.results.find((r) => r.id === 'lint-tool-descriptions')!.status,
    'pass',
    'the good folder was still linted',
  );
});
