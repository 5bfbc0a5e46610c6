// A proof that got no answer proves nothing (DESIGN, "When a proof is inconclusive"): a tool that
// never answers — one waiting on an unreachable API — fails no criterion. The proof is made with
// another tool when there is one; when there is none, the criterion is said to be unproven, and the
// verdict counts only proven failures.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { fixtureBundle, reportSchemaErrors, ROOT, runCli, startHttp, tempDir } from './helpers.js';

const SILENT = fixtureBundle('silent-tool-reference');

function failures(report: CheckReport): string[] {
  return report.results
    .filter((r) => r.status === 'fail' || r.status === 'error')
    .map((r) => `${r.id}: ${r.findings[0]?.message}`);
}

t.test('one tool never answers: every criterion is proven with the others, and the verdict is yes', async (t) => {
  const run = await runCli(['--format', 'json', '--', 'node', SILENT]);
  const report = JSON.parse(run.stdout) as CheckReport;
  t.same(reportSchemaErrors(report), []);
  t.same(failures(report), [], 'nothing fails');
  t.equal(report.verdict?.implements, 'yes', report.verdict?.summary ?? run.stderr);
  t.equal(run.code, 0, 'exit 0');
  const silentCalls = report.results
    .flatMap((r) => r.findings)
    .filter((f) => f.code === 'inconclusive' || f.code === 'unproven');
  t.ok(
    silentCalls.every((f) => f.level === 'info' || f.level === undefined),
    'what got no answer is said as information',
  );
});

t.test(
  'no tool ever answers: the criteria that need a call are unproven, not failed, and the verdict says so',
  async (t) => {
    const textFile = join(tempDir(), 'report.txt');
    const run = await runCli([
      '--format',
      'json',
      '--report',
      `text=${textFile}`,
      '--timeout',
      '2000',
      '--env',
      'PD_SILENT_TOOLS=*',
      '--',
      'node',
      SILENT,
    ]);
    const report = JSON.parse(run.stdout) as CheckReport;
    t.same(reportSchemaErrors(report), []);
    t.same(failures(report), [], 'nothing fails');
    t.equal(run.code, 0, 'exit 0: no failure was proven');
    t.equal(report.verdict?.implements, 'partly', 'not yes: not everything was proven');
    const unproven = (report.verdict?.unproven ?? []).map((u) => u.id);
    t.ok(unproven.includes('pd-description-required'), `criterion 7 is unproven (${unproven.join(', ')})`);
    t.match(
      report.verdict?.summary,
      /no criterion fails, but only \d of 9 were proven\. Not proven \(no failure\): .*pd-description-required, every call made before its description was fetched got no answer \(no response within 2000 ms/,
    );
    const status = Object.fromEntries(report.results.map((r) => [r.id, r.status]));
    t.equal(status['pd-description-required'], 'skip');
    const text = readFileSync(textFile, 'utf8');
    t.match(
      text,
      /Not proven: every call made before its description was fetched got no answer/,
      'the text report says why',
    );
    t.match(text, /to prove them: Give slow tools more time with --timeout 15000/, 'and what to do');
  },
);

t.test(
  'a first tools/list slower than --timeout is asked once more with three times the time: the listing is judged, and the report says so',
  async (t) => {
    const server = await startHttp(fixtureBundle('slow-first-listing'), { FIRST_LISTING_MS: '1500' });
    t.teardown(server.stop);
    const run = await runCli([
      '--format',
      'json',
      '--url',
      server.url,
      '--protocol',
      '2025-11-25',
      '--timeout',
      '1000',
      '--explore',
      '0',
      '--only',
      'pd-minimal-descriptions,mcp-tools-pagination',
    ]);
    const report = JSON.parse(run.stdout) as CheckReport;
    t.same(reportSchemaErrors(report), []);
    const minimal = report.results.find((r) => r.id === 'pd-minimal-descriptions');
    t.equal(
      minimal?.status,
      'pass',
      `judged, not read as an empty list: ${minimal?.findings.map((f) => f.message).join(' | ')}`,
    );
    t.match(
      minimal?.findings.find((f) => f.code === 'listing-asked-again')?.message,
      /^tools\/list got no answer within 1,000 ms; asked again with 3,000 ms, it answered/,
      'the window is stated',
    );
    t.match(
      report.results.find((r) => r.id === 'mcp-tools-pagination')?.findings.find((f) => f.code === 'pages')?.message,
      /^tools\/list: 7 tools in 2 pages\.$/,
      'the page asked again counts once',
    );
    t.equal(run.code, 0);
    // The answer to the request the checker gave up on had nowhere to go: the server (the reference
    // server's HTTP wiring) must live on for the next client.
    const again = await runCli([
      '--url',
      server.url,
      '--protocol',
      '2025-11-25',
      '--explore',
      '0',
      '--only',
      'pd-minimal-descriptions',
    ]);
    t.equal(again.code, 0, `the server still answers: ${again.stderr}`);
  },
);

t.test('a tools/list that never answers, even asked again, is no listing (not an empty one)', async (t) => {
  const run = await runCli([
    '--format',
    'json',
    '--timeout',
    '500',
    '--explore',
    '0',
    '--only',
    'pd-minimal-descriptions',
    '--',
    'node',
    join(ROOT, 'dist', 'fixtures', 'hostile', 'stalls-after-one.js'),
  ]);
  const report = JSON.parse(run.stdout) as CheckReport;
  const finding = report.results.find((r) => r.id === 'pd-minimal-descriptions')?.findings[0];
  t.equal(finding?.code, 'no-listing');
  t.match(
    finding?.message,
    /^tools\/list got no answer, so nothing can be disclosed progressively: tools\/list got no response \(no response within 500 ms;.*\); asked again with 1,500 ms, it got no response \(no response within 1500 ms/,
  );
  t.equal(run.code, 1);
});
