// Every fixture server, once, as a user runs it: the built CLI against the fixture's process, over
// stdio — or over Streamable HTTP for a fault that only shows when one process serves every session.
// The same fixtures run in-process over HTTP in test/fixture-matrix.test.ts.
import t from 'tap';
import { join } from 'node:path';
import { severityOf } from '../src/core/check.js';
import type { CheckReport } from '../src/generated/report.js';
import { DEFAULT_CHECKS, fixtureBundle, reportSchemaErrors, runCli, startHttp, tempDir } from './helpers.js';
import { FIXTURES, fixtureRunOptions, judgeFixtureRun } from './support/fixtures.js';

t.test('every live check has at least one negative fixture, and every fixture declares what it breaks', async (t) => {
  // Ours and the default plugins' (a plugin's check quality/x is named quality-x in a file name).
  for (const check of DEFAULT_CHECKS.live)
    t.ok(
      FIXTURES.some((f) => f.check === check.id),
      `${check.id} has a fixtures/servers/${fileNameOf(check.id)}--<violation>.ts`,
    );
  for (const f of FIXTURES) {
    const check = DEFAULT_CHECKS.live.find((c) => c.id === f.check);
    t.ok(check, `${f.name}: ${f.check} is a registered check`);
    t.ok(f.name.startsWith(`${fileNameOf(f.check)}--`), `${f.name}: named after the check it breaks`);
    t.ok(
      f.codes.length > 0 && f.codes.every((c) => check && c in check.messages),
      `${f.name}: declares codes its check has (${f.codes.join(', ')})`,
    );
    // A check whose level is a SHOULD can only warn: its fixtures must say so.
    if (check && severityOf(check.spec.level) !== 'error')
      t.equal(f.expected, 'warn', `${f.name}: ${f.check} is a ${check.spec.level}, so it warns`);
  }
});

/** A check's id as the start of a file name: a plugin's `<plugin>/<id>` as `<plugin>-<id>`. */
function fileNameOf(id: string): string {
  return id.replace('/', '-');
}

for (const fixture of FIXTURES) {
  const kind = fixture.httpOnly ? 'http' : 'stdio';
  t.test(`${fixture.name} over ${kind} fails ${fixture.check} and nothing else`, async (t) => {
    let args: string[];
    if (kind === 'http') {
      const server = await startHttp(fixtureBundle(fixture.name));
      t.teardown(server.stop);
      args = ['--url', server.url];
    } else {
      // The shared-grant-store fixture keeps its grants in this file (one per run).
      args = ['--env', `GRANT_STORE=${join(tempDir(), 'grants.json')}`, '--', 'node', fixtureBundle(fixture.name)];
    }
    // Default settings: 3 sessions over stdio, 16 over HTTP.
    const run = await runCli([...fixtureRunOptions(fixture), ...args]);
    let report: CheckReport;
    try {
      report = JSON.parse(run.stdout) as CheckReport;
    } catch {
      t.fail(`no JSON report (exit ${run.code}): ${run.stderr.slice(0, 500)}`);
      return;
    }
    t.same(reportSchemaErrors(report), [], 'report is schema-valid');
    judgeFixtureRun(t, fixture, report, kind);
    t.equal(run.code, fixture.expected === 'fail' ? 1 : 0, 'exit code follows --fail-on error');
  });
}
