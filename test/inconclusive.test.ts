// A proof that got no answer proves nothing (DESIGN, "When a proof is inconclusive"): a tool that
// never answers — one waiting on an unreachable API — fails no criterion. The proof is made with
// another tool when there is one; when there is none, the criterion is said to be unproven, and the
// verdict counts only proven failures.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { fixtureBundle, reportSchemaErrors, runCli, tempDir } from './helpers.js';

const SILENT = fixtureBundle('silent-tool-reference');

function failures(report: CheckReport): string[] {
  return report.results.filter((r) => r.status === 'fail' || r.status === 'error').map((r) => `${r.id}: ${r.findings[0]?.message}`);
}

t.test('one tool never answers: every criterion is proven with the others, and the verdict is yes', async (t) => {
  const run = await runCli(['--format', 'json', '--', 'node', SILENT]);
  const report = JSON.parse(run.stdout) as CheckReport;
  t.same(reportSchemaErrors(report), []);
  t.same(failures(report), [], 'nothing fails');
  t.equal(report.verdict?.implements, 'yes', report.verdict?.summary ?? run.stderr);
  t.equal(run.code, 0, 'exit 0');
  const silentCalls = report.results.flatMap((r) => r.findings).filter((f) => f.code === 'inconclusive' || f.code === 'unproven');
  t.ok(silentCalls.every((f) => f.level === 'info' || f.level === undefined), 'what got no answer is said as information');
});

t.test('no tool ever answers: the criteria that need a call are unproven, not failed, and the verdict says so', async (t) => {
  const textFile = join(tempDir(), 'report.txt');
  const run = await runCli(['--format', 'json', '--report', `text=${textFile}`, '--timeout', '2000', '--env', 'PD_SILENT_TOOLS=*', '--', 'node', SILENT]);
  const report = JSON.parse(run.stdout) as CheckReport;
  t.same(reportSchemaErrors(report), []);
  t.same(failures(report), [], 'nothing fails');
  t.equal(run.code, 0, 'exit 0: no failure was proven');
  t.equal(report.verdict?.implements, 'partly', 'not yes: not everything was proven');
  const unproven = (report.verdict?.unproven ?? []).map((u) => u.id);
  t.ok(unproven.includes('pd-description-required'), `criterion 7 is unproven (${unproven.join(', ')})`);
  t.match(report.verdict?.summary, /no criterion fails, but only \d of 9 were proven\. Not proven \(no failure\): .*pd-description-required, every call made before its description was fetched got no answer \(no response within 2000 ms/);
  const status = Object.fromEntries(report.results.map((r) => [r.id, r.status]));
  t.equal(status['pd-description-required'], 'skip');
  const text = readFileSync(textFile, 'utf8');
  t.match(text, /Not proven: every call made before its description was fetched got no answer/, 'the text report says why');
  t.match(text, /to prove them: Give slow tools more time with --timeout 15000/, 'and what to do');
});
