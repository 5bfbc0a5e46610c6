import t from 'tap';
import { LIVE_CHECKS } from '../checks/index.js';
import { checkJson, cleanStatusOverStdio, REFERENCE, reportSchemaErrors, runCli } from './helpers.js';

/** Over stdio without --cards, the two Tool Card checks skip (saying why); the rest pass. */
const SKIPPED = LIVE_CHECKS.filter((c) => cleanStatusOverStdio(c.id) === 'skip').length;

t.test('the reference server passes every check, with a schema-valid JSON report', async (t) => {
  const { run, report } = await checkJson(['node', REFERENCE]);
  t.equal(run.code, 0, 'exit 0');
  t.same(reportSchemaErrors(report), [], 'report valid against schemas/report.schema.json');
  t.same(report.results.map((r) => r.id), LIVE_CHECKS.map((c) => c.id), 'every registered check ran, in order');
  t.equal(report.results.filter((r) => r.spec.criterion).length, 9, 'the nine criteria are there');
  for (const r of report.results) t.equal(r.status, cleanStatusOverStdio(r.id), `${r.id}: ${JSON.stringify(r.findings.filter((f) => f.level !== 'info'))}`);
  t.same(report.summary, { passed: LIVE_CHECKS.length - SKIPPED, failed: 0, warnings: 0, skipped: SKIPPED, errors: 0 });
  t.match(report.results.find((r) => r.id === 'toolcard-well-known')!.findings[0]!.message, /needs a Streamable HTTP target/);
  t.equal(report.target.kind, 'stdio');
  t.equal(report.target.serverInfo?.name, 'mcp-pd-reference-server');
  t.match(report.target.command, /bundle\.js$/);
});

t.test('the report says which error form the server used', async (t) => {
  const { report } = await checkJson(['node', REFERENCE]);
  const info = (id: string) => report.results.find((r) => r.id === id)!.findings.filter((f) => f.level === 'info').map((f) => f.message).join(' ');
  t.match(info('pd-description-required'), /JSON text in a successful result \(isError: true\)/);
  t.match(info('pd-missing-tool-selection'), /JSON text in a successful result/);
});

t.test('--safe-calls still passes: only read-only tools are called', async (t) => {
  const { run, report } = await checkJson(['node', REFERENCE], ['--safe-calls', '--sessions', '3']);
  t.equal(run.code, 0);
  t.same(report.options, { timeoutMs: 5000, sessions: 3, safeCalls: true, allowDestructive: false, failOn: 'error' });
  for (const r of report.results) t.equal(r.status, cleanStatusOverStdio(r.id), r.id);
});

t.test('the text report lists every check as passed (Tool Cards skipped over stdio) and no colour when not a terminal', async (t) => {
  const run = await runCli(['--', 'node', REFERENCE], { env: { FORCE_COLOR: undefined } });
  t.equal(run.code, 0);
  t.match(run.stdout, new RegExp(`PASSED \\(${LIVE_CHECKS.length - SKIPPED}\\)`));
  t.match(run.stdout, new RegExp(`${LIVE_CHECKS.length} checks: ${LIVE_CHECKS.length - SKIPPED} passed, 0 failed, 0 warnings, ${SKIPPED} skipped`));
  t.notMatch(run.stdout, /\u001b\[/, 'no escape sequences');
  t.equal(run.stderr, '');
});
