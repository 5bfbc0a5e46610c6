import t from 'tap';
import { PD_CRITERIA } from '../checks/index.js';
import { checkJson, fixtureBundle, runCli } from './helpers.js';

t.test('an ordinary MCP server fails the nine criteria with readable messages, quickly', async (t) => {
  const { run, report } = await checkJson(['node', fixtureBundle('plain-mcp-server')]);
  t.equal(run.code, 1, 'exit 1');
  t.ok(run.ms < 30_000, `did not hang (${Math.round(run.ms)} ms; the speed itself is measured by hand, not here)`);
  const criteria = report.results.filter((r) => PD_CRITERIA.some((c) => c.id === r.id));
  t.equal(criteria.length, 9);
  for (const r of criteria) {
    // pd-unknown-tool is a SHOULD: its failure is a warning.
    t.equal(r.status, r.id === 'pd-unknown-tool' ? 'warn' : 'fail', `${r.id} does not pass`);
    const messages = r.findings.filter((f) => f.level !== 'info');
    t.ok(messages.length > 0, `${r.id} says why`);
    for (const f of messages) {
      t.notMatch(f.message, /\bat .+:\d+:\d+\)|Error:|undefined|\[object Object\]/, `plain words, no stack: ${f.message}`);
      t.ok(f.hint, 'and how to fix it');
    }
  }
  const prerequisite = report.results.find((r) => r.id === 'pd-tools-parameter')!.findings[0]!;
  t.match(prerequisite.message, /no tool_descriptions resource/);
});

t.test('the text report of an ordinary server has no stack trace', async (t) => {
  const run = await runCli(['--', 'node', fixtureBundle('plain-mcp-server')]);
  t.equal(run.code, 1);
  t.match(run.stdout, /FAILED \(\d+\)/);
  t.match(run.stdout, /✗ pd-minimal-descriptions/);
  t.notMatch(run.stdout + run.stderr, /\n\s+at [\w.<>]+ \(/);
});
