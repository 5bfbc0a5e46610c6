// The lint against its fixture folders (fixtures/folders/): every lint check is triggered by one, each
// folder gives exactly its expected findings (test/support/lint-expected-*.ts), each at a file and
// line with a fix hint; the Tool Card levels L1, L2, L3 and the 90-day window.
import t from 'tap';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LINT_CHECKS } from '../checks/index.js';
import type { CheckReport } from '../src/generated/report.js';
import { ROOT, reportSchemaErrors } from './helpers.js';
import { lintPaths, NOW } from './support/lint-shipped.js';
import { SYNTAX_SCHEMA_EXPECTED } from './support/lint-expected-syntax-schema.js';
import { CONTENT_EXPECTED } from './support/lint-expected-content.js';

const FOLDERS = join(ROOT, 'fixtures', 'folders');

const EXPECTED = { ...SYNTAX_SCHEMA_EXPECTED, ...CONTENT_EXPECTED };

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
