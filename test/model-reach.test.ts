// Issue 34's classes end to end, over real processes: a grant store shared by the two protocol
// eras' sessions is criterion 8's finding in both (not an unenforced criterion 7 in the second),
// and once an unfetched call was answered by the tool's own argument check, the clean session
// keeps calling the other tools with arguments their schemas refuse.
import t from 'tap';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { fixtureBundle, ROOT, runCli, tempDir } from './helpers.js';
import { TEST_SEED } from './support/fixtures.js';

const FILESYSTEM = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

const failing = (report: CheckReport, era: string) =>
  report.results.filter((r) => r.era === era && r.status === 'fail').map((r) => r.id);

t.test('a grant store shared by processes, checked in both eras: criterion 8 in each, never criterion 7', async (t) => {
  const run = await runCli([
    '--format',
    'json',
    '--seed',
    String(TEST_SEED),
    '--idle',
    '0',
    '--env',
    `GRANT_STORE=${join(tempDir(), 'grants.json')}`,
    '--',
    'node',
    fixtureBundle('pd-session-isolation--shared-grant-store'),
  ]);
  const report = JSON.parse(run.stdout) as CheckReport;
  t.same(
    report.eras?.filter((e) => e.checked).map((e) => e.era),
    ['2025-11-25', '2026-07-28'],
  );
  for (const era of ['2025-11-25', '2026-07-28'])
    t.same(failing(report, era), ['pd-session-isolation'], `${era}: only criterion 8 fails`);
  // The second era's sessions never fetched what they could call: the first era's sessions did.
  const modern = report.results.find((r) => r.id === 'pd-session-isolation' && r.era === '2026-07-28');
  t.ok(
    modern?.findings.some((f) => f.code === 'grant-inherited'),
    'in 2026-07-28: grants inherited from sessions that ended',
  );
});

t.test(
  'after an unfetched call reached its argument check, other tools are still called with refused arguments',
  async (t) => {
    const run = await runCli(['--format', 'json', '--protocol', '2025-11-25', '--', 'node', FILESYSTEM, tempDir()]);
    const report = JSON.parse(run.stdout) as CheckReport;
    const criterion7 = report.results.find((r) => r.id === 'pd-description-required');
    const ran = new Set(criterion7?.findings.filter((f) => f.code === 'ran-unfetched').map((f) => String(f.args.tool)));
    // create_directory is not read-only: it is called only with arguments its schema refuses.
    t.ok(ran.size > 1 && ran.has('create_directory'), `more than the first call was made: ${[...ran].join(', ')}`);
    t.notOk(
      report.verdict?.notCalled?.some((n) => /prove nothing new/.test(n.why)),
      'no tool left uncalled because one ran',
    );
  },
);
