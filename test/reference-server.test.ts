import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { DEFAULT_EXPLORE } from '../src/model/explore/defaults.js';
import {
  checkJson,
  cleanStatusOverStdio,
  DEFAULT_CHECKS,
  REFERENCE,
  reportSchemaErrors,
  runCli,
  tempDir,
} from './helpers.js';
import { assertDocumentedScore } from './support/documented-scores.js';

/**
 * Over stdio without --cards, the Tool Card and HTTP-only checks skip (saying why), and in each era
 * the checks of the other (ping in 2026-07-28, the modern result rules in 2025-11-25); the rest pass.
 */
const STATUSES = ['2025-11-25', '2026-07-28'].flatMap((era) =>
  DEFAULT_CHECKS.live.map((c) => cleanStatusOverStdio(c.id, era)),
);
const SKIPPED = STATUSES.filter((s) => s === 'skip').length;
const PASSED = STATUSES.length - SKIPPED;

t.test('the reference server passes every check: the text report on stdout, JSON and HTML beside it', async (t) => {
  const dir = tempDir();
  const files = { json: join(dir, 'report.json'), html: join(dir, 'report.html') };
  const run = await runCli(
    ['--report', `json=${files.json}`, '--report', `html=${files.html}`, '--', 'node', REFERENCE],
    { env: { FORCE_COLOR: undefined } },
  );
  t.equal(run.code, 0, 'exit 0');
  t.equal(run.stderr, '');

  const report = JSON.parse(readFileSync(files.json, 'utf8')) as CheckReport;
  t.same(reportSchemaErrors(report), [], 'report valid against schemas/report.schema.json');
  // It speaks both protocol eras: every check, in order, in each.
  t.same(
    report.results.map((r) => `${r.id} ${r.era}`),
    ['2025-11-25', '2026-07-28'].flatMap((era) => DEFAULT_CHECKS.live.map((c) => `${c.id} ${era}`)),
    'every registered check ran, in order, in each era',
  );
  t.equal(report.results.filter((r) => r.spec.criterion).length, 18, 'the nine criteria are there, in each era');
  t.equal(report.verdict?.implements, 'yes', 'yes in both eras');
  assertDocumentedScore(t, report, 'the reference server (`reference-server/`)');
  for (const r of report.results)
    t.equal(
      r.status,
      cleanStatusOverStdio(r.id, r.era),
      `${r.id}: ${JSON.stringify(r.findings.filter((f) => f.level !== 'info'))}`,
    );
  // Over stdio the process is the session: 2026-07-28 loses only ping (and gains its own result rules).
  t.same(report.summary, { passed: PASSED, failed: 0, warnings: 0, skipped: SKIPPED, errors: 0 });
  t.match(
    report.results.find((r) => r.id === 'toolcard-well-known')!.findings[0].message,
    /needs a Streamable HTTP target/,
  );
  t.equal(report.target.kind, 'stdio');
  t.equal(report.target.serverInfo?.name, 'mcp-pd-reference-server');
  t.match(report.target.command, /bundle\.js$/);

  // The report says which error form the server used.
  const info = (id: string) =>
    report.results
      .find((r) => r.id === id)!
      .findings.filter((f) => f.level === 'info')
      .map((f) => f.message)
      .join(' ');
  t.match(info('pd-description-required'), /JSON text in a successful result \(isError: true\)/);
  t.match(info('pd-missing-tool-selection'), /JSON text in a successful result/);
  // Its calls were made before the checks started, in the clean session: its time is theirs, never 0 ms.
  for (const r of report.results.filter((r) => r.id === 'pd-description-required'))
    t.ok(r.durationMs > 0, `pd-description-required ${r.era}: ${r.durationMs} ms, the calls it judges`);

  // The text report lists every check as passed (Tool Cards skipped over stdio), without colour when not a terminal.
  t.match(
    run.stdout,
    new RegExp(`PASSED \\(${PASSED} results of 2 eras, on \\d+ lines: a check alike in every era is one\\)`),
  );
  t.match(
    run.stdout,
    new RegExp(`${2 * DEFAULT_CHECKS.live.length} checks: ${PASSED} passed, 0 failed, 0 warnings, ${SKIPPED} skipped`),
  );
  t.match(
    run.stdout,
    /server: mcp-pd-reference-server \S+, protocol 2025-11-25 and 2026-07-28\n/,
    'the eras it was checked in',
  );
  t.match(run.stdout, / {2}✓ pd-session-isolation #8 /, 'a check that passed in both eras is one line');
  t.notMatch(run.stdout, /\u001b\[/, 'no escape sequences');

  // The HTML report is self-contained and charts tokens per tool.
  const html = readFileSync(files.html, 'utf8');
  t.notMatch(html, /(src|href)=["']?https?:/i, 'no network resources');
  t.match(html, /<svg id="token-chart"/);
  // The notebook's six tools and the tool form of the resource.
  t.equal(
    (html.match(/<title>[a-z_]+: full description \d+ tokens<\/title>/g) ?? []).length,
    7,
    'a full-description bar for each of the seven tools',
  );
  t.equal(
    (html.match(/<title>[a-z_]+: tools\/list \(minimal\) \d+ tokens<\/title>/g) ?? []).length,
    7,
    'and a tools/list bar',
  );
  t.match(
    html,
    /<p id="verdict" class="verdict yes"><b>Progressive disclosure: yes<\/b>\. For clients of 2025-11-25 and 2026-07-28 alike — Yes: all nine progressive-disclosure criteria pass\. tools\/list costs [\d,]+ tokens for 7 tools; their full descriptions [\d,]+ \(\d+ % saved\)\.<\/p>/,
    'the verdict on top, with the token figures',
  );
  t.equal(report.verdict?.implements, 'yes');
  t.equal((html.match(/<section class="check">/g) ?? []).length, report.results.length, 'every check');
});

t.test('--safe-calls still passes: only read-only tools are called', async (t) => {
  const { run, report } = await checkJson(['node', REFERENCE], ['--safe-calls', '--sessions', '3']);
  t.equal(run.code, 0);
  t.match(report.options, {
    timeoutMs: 5000,
    startupTimeoutMs: 30000,
    sessions: 3,
    safeCalls: true,
    allowDestructive: false,
    failOn: 'error',
    explore: DEFAULT_EXPLORE,
  });
  t.notOk(report.options && 'seed' in report.options, 'no --seed was given: none in the options');
  t.equal(
    report.exploration?.seedFrom,
    'listing',
    "the seed, derived from the listing, is in the exploration's summary",
  );
  t.type(report.exploration?.seed, 'number');
  for (const r of report.results) t.equal(r.status, cleanStatusOverStdio(r.id, r.era), r.id);
  // The tools it kept from every check are said, with why (a new user found the report silent on them).
  t.same(
    report.verdict?.notCalled?.map((n) => [n.tool, n.why, n.harm]).sort(),
    ['create_note', 'delete_note', 'update_note'].map((tool) => [
      tool,
      '--safe-calls: it is not marked read-only',
      true,
    ]),
    'the verdict names the tools that are not read-only as not called, to do no harm',
  );
});
