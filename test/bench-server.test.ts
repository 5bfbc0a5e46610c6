// The bench times full runs against its generated progressive-disclosure server; a run that fails
// would time a different path (and exit 1). This keeps the bench's server a correct one.
import t from 'tap';
import { join } from 'node:path';
import { ROOT, runCli } from './helpers.js';

const PD_SERVER = join(ROOT, 'dist', 'test', 'bench', 'pd-server.js');

t.test("the bench's many-tools server passes every check (so the bench times a passing run)", async (t) => {
  const run = await runCli(['--format', 'json', '--', 'node', PD_SERVER, '60']);
  t.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout) as {
    summary: { failed: number; errors: number };
    verdict?: { implements: string };
  };
  t.same([report.summary.failed, report.summary.errors], [0, 0]);
  t.equal(report.verdict?.implements, 'yes');
});
