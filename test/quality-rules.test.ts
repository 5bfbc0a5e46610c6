// The quality rules (checks/quality/, loaded by default as the plugin 'quality'): in lint, each rule
// that runs there is broken by exactly one folder of fixtures/quality/ with exactly its codes, and
// silent on the reference server's own texts; each takes its level and options from `rules`; a rule
// with nothing of its level to read says so instead of passing; the rule set imports nothing of
// ours but the public plugin entry point. Live, each rule's fixture server is in fixtures/servers/
// (quality-<rule>--<violation>.ts), judged by test/fixtures.test.ts and test/fixture-matrix.test.ts.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lint } from '../src/index.js';
import type { CheckReport } from '../src/generated/report.js';
import { DEFAULT_CHECKS, ROOT } from './helpers.js';

const FOLDERS = join(ROOT, 'fixtures', 'quality');

/** What each folder breaks, and why a reader agrees it is broken. */
const EXPECTED: Record<string, { codes: string[]; why: string }> = {
  'annotations--contradicted': {
    codes: ['hint-implicit', 'says-it-writes'],
    why: 'list_notes is marked read-only and says it deletes old notes; update_note leaves destructiveHint to the default',
  },
  'full-guidance--no-guidance': {
    codes: ['error-without-solution', 'no-when'],
    why: "get_note's full description says nowhere when to use it, and NOTE_NOT_FOUND has no solution",
  },
  'full-parameters--undescribed': {
    codes: ['enum-unexplained', 'parameter-undescribed'],
    why: "search_notes' limit has no description; its order takes asc or desc, and says neither",
  },
  'instructions-workflow--no-workflow': {
    codes: ['no-workflow'],
    why: 'the instructions describe the notebook and never say to fetch a description first',
  },
  'listed-how--format-in-listing': {
    codes: ['how-in-listing'],
    why: 'search_notes is listed with a date format: how to call it, in what every prompt carries',
  },
  'listed-too-long--long-listing': {
    codes: ['too-long'],
    why: "list_notes' listed description is three sentences, about 75 tokens",
  },
  'schema-shape--wide-and-deep': {
    codes: ['too-deep', 'too-many-parameters'],
    why: 'create_note takes 19 parameters, one nested six levels deep',
  },
  'steering--ignore-instructions': {
    codes: ['hidden-text', 'steering-text'],
    why: "search_notes' full description says to ignore previous instructions; get_note's listing hides a zero-width character",
  },
};

const QUALITY_LINT = DEFAULT_CHECKS.lint.filter((c) => c.plugin?.name === 'quality');
const NOW = new Date('2026-11-22T12:00:00Z');

const lintOf = (paths: string[], rules?: Record<string, unknown>): Promise<CheckReport> =>
  lint(paths, { cwd: ROOT, now: NOW, ...(rules ? { rules: rules as never } : {}) });

const codesOf = (report: CheckReport, id: string) =>
  [
    ...new Set(
      report.results
        .find((r) => r.id === id)
        ?.findings.filter((f) => f.level !== 'info')
        .map((f) => f.code) ?? [],
    ),
  ].sort();

t.test('every quality rule that runs in lint has a folder that breaks it, and every folder is expected', async (t) => {
  t.ok(QUALITY_LINT.length >= 8, `${QUALITY_LINT.length} quality rules run in lint`);
  for (const check of QUALITY_LINT)
    t.ok(
      Object.keys(EXPECTED).some((folder) => `quality/${folder.split('--')[0]}` === check.id),
      `${check.id} has a fixtures/quality/<rule>--<violation>/ folder`,
    );
  t.same(
    readdirSync(FOLDERS)
      .filter((f) => f !== 'clean')
      .sort(),
    Object.keys(EXPECTED).sort(),
  );
});

for (const [folder, { codes, why }] of Object.entries(EXPECTED)) {
  const id = `quality/${folder.split('--')[0]}`;
  t.test(`fixtures/quality/${folder}: ${id} finds ${codes.join(', ')} (${why})`, async (t) => {
    const report = await lintOf([join('fixtures', 'quality', folder)]);
    t.same(codesOf(report, id), codes, 'exactly its codes');
    const own = report.results.find((r) => r.id === id)!;
    for (const f of own.findings.filter((x) => x.level !== 'info')) {
      t.match(f.location?.file ?? '', /^fixtures\/quality\//, `${f.code}: at a file`);
      t.ok((f.location?.line ?? 0) >= 1, `${f.code}: at a line`);
      t.ok(f.hint, `${f.code}: with a fix`);
    }
    for (const r of report.results.filter((x) => x.id !== id))
      t.ok(
        r.status === 'pass' || r.status === 'skip',
        `${r.id} is silent (${r.status}: ${codesOf(report, r.id).join(', ')})`,
      );
  });
}

t.test("the reference server's own texts break no quality rule", async (t) => {
  const report = await lintOf([join('fixtures', 'quality', 'clean'), join('reference-server', 'tool_descriptions')]);
  for (const check of QUALITY_LINT) {
    const r = report.results.find((x) => x.id === check.id);
    t.equal(r?.status, 'pass', `${check.id} passes (${codesOf(report, check.id).join(', ')})`);
  }
});

t.test("a rule's level and options are the user's", async (t) => {
  const folder = [join('fixtures', 'quality', 'listed-too-long--long-listing')];
  const id = 'quality/listed-too-long';
  const status = (report: CheckReport) => report.results.find((r) => r.id === id)?.status;
  t.equal(status(await lintOf(folder)), 'warn', 'a SHOULD warns by default');
  t.equal(status(await lintOf(folder, { [id]: 'error' })), 'fail', 'error: it fails');
  t.equal(status(await lintOf(folder, { [id]: 'off' })), undefined, 'off: not run');
  t.equal(
    status(await lintOf(folder, { [id]: ['warn', { maxTokens: 100 }] })),
    'pass',
    'a bound of 100 tokens: 75 pass',
  );
  const tight = await lintOf(folder, { [id]: ['error', { maxTokens: 20 }] });
  t.equal(status(tight), 'fail');
  t.ok(
    tight.results.find((r) => r.id === id)!.findings.some((f) => f.args.max === 20),
    'the finding names the bound it was held to',
  );
  // Options are checked against the rule's defaults: one line, with the nearest name.
  await t.rejects(
    lintOf(folder, { [id]: ['warn', { maxToken: 100 }] }),
    /has no option 'maxToken' \(did you mean 'maxTokens'\?\)/,
  );
  await t.rejects(lintOf(folder, { [id]: ['warn', { maxTokens: '100' }] }), /it takes a number \(default 60\)/);
  await t.rejects(lintOf(folder, { 'quality/steering': ['warn', { maxTokens: 1 }] }), /takes no options/);
});

t.test('a rule with nothing of its level to read is skipped, saying so, never passed', async (t) => {
  // Full descriptions only: the rules of the listed level have nothing to read.
  const report = await lintOf([join('reference-server', 'tool_descriptions')]);
  for (const id of ['quality/listed-too-long', 'quality/listed-how', 'quality/annotations']) {
    const r = report.results.find((x) => x.id === id);
    t.equal(r?.status, 'skip', `${id} skips`);
    t.match(r?.findings[0]?.message ?? '', /Nothing to check: no saved tools\/list/, 'and says what it lacked');
  }
});

t.test('the rule set imports nothing of ours but the public plugin entry point', async (t) => {
  const dir = join(ROOT, 'checks', 'quality');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const imports = [...readFileSync(join(dir, file), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    for (const spec of imports)
      t.ok(
        spec === '../../src/plugin/index.js' || /^\.\/[\w-]+\.js$/.test(spec),
        `${file} imports ${spec}: the plugin API, or a file of the rule set`,
      );
  }
});
