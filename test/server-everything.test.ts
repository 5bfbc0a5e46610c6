import t, { type Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIVE_CHECKS, PD_CRITERIA } from '../checks/index.js';
import type { CheckReport } from '../src/generated/report.js';
import { CLI, ROOT, reportSchemaErrors, runCli, tempDir } from './helpers.js';

const EVERYTHING = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

function assertClearReport(t: Test, code: number | null, stdout: string): void {
  t.equal(code, 1, 'exit 1: it does not implement progressive disclosure');
  const report = JSON.parse(stdout) as CheckReport;
  t.same(reportSchemaErrors(report), []);
  t.equal(report.results.length, LIVE_CHECKS.length, 'every check ran');
  t.same(report.results.filter((r) => r.status === 'error').map((r) => r.id), [], 'no check broke');
  for (const r of report.results.filter((r) => PD_CRITERIA.some((c) => c.id === r.id))) t.not(r.status, 'pass', `${r.id} does not pass`);
  t.equal(report.results.find((r) => r.id === 'mcp-wire-valid')?.status, 'pass', 'its messages are valid MCP');
  for (const r of report.results.filter((r) => /^(dashdash|toolcard)-/.test(r.id))) {
    t.equal(r.status, 'skip', `${r.id} skips: the extension is optional and absent`);
    t.ok(r.findings[0]?.message, 'and says why');
  }
}

t.test('@modelcontextprotocol/server-everything over stdio: a clear report, no crash', async (t) => {
  const run = await runCli(['--format', 'json', '--', process.execPath, EVERYTHING, 'stdio']);
  assertClearReport(t, run.code, run.stdout);
  t.ok(run.ms < 60_000, `did not hang (${Math.round(run.ms)} ms)`);
});

// Its HTTP mode listens on every interface; a private network namespace keeps it unreachable.
const netns = spawnSync('unshare', ['-rn', 'true']).status === 0;
t.test('@modelcontextprotocol/server-everything over Streamable HTTP', { skip: netns ? false : 'unshare -rn is not available here' }, async (t) => {
  const script = join(ROOT, 'test', 'support', 'in-private-network.sh');
  const run = spawnSync('unshare', ['-rn', 'sh', script, '3001', CLI, EVERYTHING, '--', '--format', 'json', '--url', 'http://127.0.0.1:3001/mcp'], {
    cwd: ROOT, encoding: 'utf8', timeout: 120_000,
  });
  t.not(run.status, 99, run.stderr);
  assertClearReport(t, run.status, run.stdout);
});

t.test('server-everything\'s get-env runs, yet no report of any format carries a secret of the checker\'s environment', async (t) => {
  const secret = 'tok_everything_5e4d3c2b1a0f';
  const dir = tempDir();
  const formats = ['json', 'junit', 'sarif', 'github', 'markdown', 'html', 'text'];
  const reports = formats.flatMap((f) => ['--report', `${f}=${join(dir, `r.${f}`)}`]);
  // --inherit-env: the server then holds the secret and get-env returns it (the default environment's
  // case, where it never gets it, is test/leaks.test.ts' env-echo).
  for (const how of [['--inherit-env']]) {
    const run = await runCli(['--format', 'json', ...reports, ...how, '--', process.execPath, EVERYTHING, 'stdio'], { env: { MCP_PD_FAKE_SECRET_KEY: secret } });
    t.equal(run.code, 1, `${how.join(' ') || 'default environment'}: a verdict`);
    const getEnv = (JSON.parse(run.stdout) as CheckReport).results.flatMap((r) => r.findings).flatMap((f) => f.transcript ?? [])
      .find((ex) => (ex.request as { params?: { name?: string } }).params?.name === 'get-env' && ex.response);
    if (how.length) t.match(JSON.stringify(getEnv?.response ?? ''), /\[redacted \$MCP_PD_FAKE_SECRET_KEY\]/, 'with --inherit-env the server had it: masked where it appears');
    for (const text of [run.stdout, run.stderr, ...formats.map((f) => readFileSync(join(dir, `r.${f}`), 'utf8'))]) {
      t.notOk(text.includes(secret), 'the secret is in no output');
    }
  }
});
