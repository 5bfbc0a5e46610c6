// One token figure and one selection figure per list (issue 73, items 3–5): init, the live checks,
// lint and lock count a list's tokens and rank its tools by one definition
// (src/rules/list-figures.ts), so that each says the same of the same list.
import t from 'tap';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { verdictSentence } from '../src/core/verdict-sentence.js';
import { CLI, fixtureBundle, REFERENCE, ROOT, runCli, tempDir } from './helpers.js';

const FILESYSTEM = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
/** A minute per request: a bound only a hang reaches. */
const CHECK = ['--format', 'json', '--protocol', '2025-11-25', '--explore', '0', '--timeout', '60000'];

/** What init printed: the list written (tokens, full, saving) and the share of queries its tools were found first by. */
function initFigures(stdout: string): { listed: number; full: number; percent: number; found: number } {
  const saving =
    /^Saving: (\d+) % — the list written costs ([\d,]+) tokens in every prompt \(today [\d,]+\), its full descriptions ([\d,]+) /m.exec(
      stdout,
    );
  const found = /^ {2}all +[\d,]+ → +[\d,]+ +found first +(\d+) %/m.exec(stdout);
  const num = (s: string | undefined) => Number((s ?? 'NaN').replace(/,/g, ''));
  return { listed: num(saving?.[2]), full: num(saving?.[3]), percent: num(saving?.[1]), found: num(found?.[1]) };
}

/** What lint said of the folder's tools-list.minimal.json. */
function lintFigures(report: CheckReport): {
  listed: number;
  full: number;
  percent: number;
  found: number;
  queries: number;
} {
  const findings = report.results.find((r) => r.id === 'lint-tools-list')?.findings ?? [];
  const args = (code: string) => findings.find((f) => f.code === code)?.args ?? {};
  return {
    listed: Number(args('file-tokens').tokens),
    full: Number(args('list-saving').full),
    percent: Number(args('list-saving').percent),
    found: Number(args('selection-summary').percent),
    queries: Number(args('selection-summary').queries),
  };
}

/** What a live run said of the list it was served. */
function checkFigures(report: CheckReport): {
  listed: number;
  full: number;
  percent: number;
  found: number;
  queries: number;
} {
  const tokens = report.verdict?.tokens;
  const selection = report.verdict?.selection;
  return {
    listed: tokens?.listed ?? NaN,
    full: tokens?.full ?? NaN,
    percent: tokens?.full ? Math.round((1 - tokens.listed / tokens.full) * 100) : NaN,
    found: selection ? Math.round(selection.top1 * 100) : NaN,
    queries: selection?.queries ?? NaN,
  };
}

t.test("server-filesystem's init folder: init, lint and the check behind serve give its list one figure", async (t) => {
  const dir = tempDir();
  const out = join(dir, 'pd');
  const init = await runCli(['init', '--out', out, '--', 'node', FILESYSTEM, dir]);
  t.equal(init.code, 0, init.stderr);
  const lint = await runCli(['lint', '--format', 'json', out]);
  const check = await runCli([
    ...CHECK,
    '--',
    'node',
    CLI,
    'serve',
    '--descriptions',
    out,
    '--',
    'node',
    FILESYSTEM,
    dir,
  ]);
  t.equal(check.code === 0 || check.code === 1, true, check.stderr);
  const said = { init: initFigures(init.stdout), lint: lintFigures(JSON.parse(lint.stdout) as CheckReport) };
  const live = checkFigures(JSON.parse(check.stdout) as CheckReport);
  t.ok(live.listed > 0 && live.full > live.listed, `the check measured the list (${JSON.stringify(live)})`);
  for (const [who, f] of Object.entries(said)) {
    t.equal(f.listed, live.listed, `${who}: tools/list tokens as the check counts them (${f.listed})`);
    t.equal(f.full, live.full, `${who}: full-description tokens, the tool form's among them (${f.full})`);
    t.equal(f.percent, live.percent, `${who}: the saving (${f.percent} %)`);
    t.equal(f.found, live.found, `${who}: found first (${f.found} %)`);
  }
  t.equal(said.lint.queries, live.queries, `lint asks the check's queries (${live.queries})`);
  // And the score of what the model reads: the same texts and the same selection figures, one score.
  const score = (report: CheckReport) => report.score && { server: report.score.server, worst: report.score.worst };
  t.same(
    score(JSON.parse(lint.stdout) as CheckReport),
    score(JSON.parse(check.stdout) as CheckReport),
    'the same score from lint and from the check behind serve',
  );
});

t.test('the reference server: its own list is one figure in the check, lock and init', async (t) => {
  const dir = tempDir();
  const check = checkFigures(JSON.parse((await runCli([...CHECK, '--', 'node', REFERENCE])).stdout) as CheckReport);
  const lockFile = join(dir, 'mcp-tools.lock.json');
  const lock = await runCli(['lock', '--out', lockFile, '--protocol', '2025-11-25', '--', 'node', REFERENCE]);
  t.match(lock.stderr, new RegExp(`tools/list ${check.listed} tokens`), `lock: ${check.listed} tokens in tools/list`);
  const init = await runCli(['init', '--out', join(dir, 'pd'), '--', 'node', REFERENCE]);
  t.match(
    init.stdout,
    new RegExp(
      `The server's own list costs ${check.listed.toLocaleString('en-US')} tokens against ${check.full.toLocaleString('en-US')}, ${check.percent} %: what pd-token-savings reports of it today`,
    ),
    'init says the server’s own figure as the check does, beside that of the list it writes',
  );
  const lint = lintFigures(
    JSON.parse((await runCli(['lint', '--format', 'json', join(dir, 'pd')])).stdout) as CheckReport,
  );
  const written = initFigures(init.stdout);
  t.same(
    { listed: lint.listed, full: lint.full, percent: lint.percent, found: lint.found },
    written,
    'and of the list it writes, what lint says of that folder',
  );
});

t.test(
  "a server whose reads are limited: read in groups it takes; tools/list's cost is the whole list's",
  async (t) => {
    const run = await runCli([
      '--protocol',
      '2025-11-25',
      '--explore',
      '0',
      '--timeout',
      '60000',
      '--',
      'node',
      fixtureBundle('batch-limit-peer'),
    ]);
    // It refuses a read of more than 20 names: the 60 descriptions come in groups of 20 (the error's data.max).
    const sentence =
      /tools\/list costs ([\d,]+) tokens for 60 tools; their full descriptions [\d,]+ \(\d+ % saved\)/.exec(run.stdout);
    t.ok(sentence, `every description read (${run.stdout.split('\n')[4]})`);
    t.match(
      run.stdout,
      new RegExp(`Client budgets: 60 tools, ${sentence?.[1]} tokens in tools/list`),
      'the budget line: the same cost',
    );
  },
);

t.test('fewer tools described than listed: the saving says it is of those read', async (t) => {
  const sentence = verdictSentence({
    implements: 'yes',
    failing: [],
    notTestable: [],
    tokens: {
      encoding: 'o200k_base',
      listed: 4176,
      full: 2356,
      described: { tools: 10, listed: 696, of: 60 },
      tools: [],
    },
  });
  t.match(
    sentence,
    /tools\/list costs 4,176 tokens for 60 tools; the full descriptions of the 10 read cost 2,356 against their 696 listed \(70 % saved\)\./,
  );
});

t.test(
  'a server without the resource: the estimate of a minimal list is what serve lists in front of it',
  async (t) => {
    const dir = tempDir();
    const alone = JSON.parse((await runCli([...CHECK, '--', 'node', FILESYSTEM, dir])).stdout) as CheckReport;
    const served = JSON.parse(
      (await runCli([...CHECK, '--', 'node', CLI, 'serve', '--', 'node', FILESYSTEM, dir])).stdout,
    ) as CheckReport;
    t.ok(alone.verdict?.tokens?.estimate, `an estimate (${alone.verdict?.tokens?.estimate})`);
    t.equal(alone.verdict?.tokens?.estimate, served.verdict?.tokens?.listed, 'the tokens serve lists');
  },
);
