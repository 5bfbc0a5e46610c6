import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIVE_CHECKS } from '../checks/index.js';
import { severityOf } from '../src/check.js';
import { checkJson, cleanStatusOverStdio, fixtureCards, FIXTURE_SOURCES, fixtureBundle, reportSchemaErrors, tempDir } from './helpers.js';
import { codesOf, fixtureCodes } from './support/check-tester.js';

/**
 * The only defects the spec itself makes break two checks: a tools/list that is not minimal
 * (§3.1) is exactly what makes progressive disclosure save no tokens (§1.2), and the other way
 * round. Every other fixture fails its own check and nothing else.
 */
const ALSO_FAILS: Record<string, string[]> = {
  'pd-token-savings--verbose-list': ['pd-minimal-descriptions'],
  'pd-minimal-descriptions--full-schema-in-list': ['pd-token-savings'],
};

const fixtures = readdirSync(FIXTURE_SOURCES).filter((f) => f.includes('--') && f.endsWith('.ts')).map((f) => f.replace(/\.ts$/, ''));
/** Fixtures whose fault only shows over HTTP (say so in their header); test/http.test.ts covers them. */
const httpOnly = (fixture: string) => /^\/\/ Must fail \S+ over HTTP/.test(readFileSync(join(FIXTURE_SOURCES, `${fixture}.ts`), 'utf8'));

t.test('every live check has at least one negative fixture', async (t) => {
  for (const check of LIVE_CHECKS) {
    t.ok(fixtures.some((f) => f.startsWith(`${check.id}--`)), `${check.id} has a fixtures/servers/${check.id}--<violation>.ts`);
  }
});

for (const fixture of fixtures.filter((f) => !httpOnly(f))) {
  const checkId = fixture.split('--')[0]!;
  t.test(`${fixture} fails ${checkId} and nothing else`, async (t) => {
    const header = readFileSync(join(FIXTURE_SOURCES, `${fixture}.ts`), 'utf8').split('\n')[0]!;
    t.match(header, new RegExp(`^// Must fail ${checkId}\\b.* with [a-z0-9+-]+`), 'the header comment names the check and the codes it must fail with');
    const check = LIVE_CHECKS.find((c) => c.id === checkId);
    t.ok(check, `${checkId} is a registered check`);
    if (!check) return;

    const store = join(tempDir(), 'grants.json');
    // Every fixture meets the defaults (3 sessions over stdio).
    const cards = fixtureCards(header);
    const { run, report } = await checkJson(['node', fixtureBundle(fixture)], ['--env', `GRANT_STORE=${store}`, ...(cards ? ['--cards', cards] : [])]);
    t.same(reportSchemaErrors(report), [], 'report is schema-valid');
    // A SHOULD of a MUST check (its header says "(a warning") only warns.
    const expected = severityOf(check.spec.level) === 'error' && !header.includes('(a warning') ? 'fail' : 'warn';
    const own = report.results.find((r) => r.id === checkId)!;
    t.equal(own.status, expected, `${checkId} is '${expected}'`);
    const failing = own.findings.filter((f) => f.level !== 'info');
    t.ok(failing.length > 0, 'with at least one finding');
    for (const f of failing) {
      t.ok(f.hint, `finding has a fix hint: ${f.message}`);
    }
    t.ok(failing.some((f) => f.transcript?.length), 'a finding carries the exchange that proves it');
    t.same(codesOf(own), fixtureCodes(header), `exactly the codes its header names: ${fixtureCodes(header).join(', ')}`);
    const others = report.results.filter((r) => r.id !== checkId && !(ALSO_FAILS[fixture] ?? []).includes(r.id));
    for (const r of others) {
      // Passing, or skipped with the reason said (e.g. a server without resources has no resource dashdash).
      const ok = r.status === cleanStatusOverStdio(r.id) || (r.status === 'skip' && r.findings.some((f) => f.level === 'info'));
      t.ok(ok, `${r.id} still passes or is skipped with a reason (${r.status}: ${r.findings.map((f) => f.code).join(', ')})`);
    }
    t.equal(run.code, expected === 'fail' ? 1 : 0, 'exit code follows --fail-on error');
  });
}
