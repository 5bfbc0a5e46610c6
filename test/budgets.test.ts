// --max-tools and --max-tokens fail a run past them and pass at them, from the flags, the config
// file and the library; every report format says how the listing fits each client's budget.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkServer } from '../src/index.js';
import type { CheckReport } from '../src/generated/report.js';
import { budgetFits } from '../src/core/client-budgets.js';
import { budgetSentence } from '../src/core/verdict-sentence.js';
import { fixtureBundle, REFERENCE, runCli, startHttp, tempDir } from './helpers.js';

const ONLY = ['--only', 'mcp-tool-budget', '--explore', '0', '--protocol', '2025-11-25'];

/** The reference server's figures, as the check measures them. */
async function figures(): Promise<{ tools: number; tokens: number }> {
  const run = await runCli([...ONLY, '--format', 'json', '--', 'node', REFERENCE]);
  const report = JSON.parse(run.stdout) as CheckReport;
  const size = report.results[0].findings.find((f) => f.code === 'list-size')!;
  return { tools: Number(size.args.tools), tokens: Number(size.args.tokens) };
}

t.test('flags: at the budget passes, one past it fails with the figure', async (t) => {
  const { tools, tokens } = await figures();
  t.ok(tools > 1 && tokens > 100, `measured ${tools} tools, ${tokens} tokens`);
  const at = await runCli([
    ...ONLY,
    '--max-tools',
    String(tools),
    '--max-tokens',
    String(tokens),
    '--',
    'node',
    REFERENCE,
  ]);
  t.equal(at.code, 0, at.stdout);
  const overTools = await runCli([...ONLY, '--max-tools', String(tools - 1), '--', 'node', REFERENCE]);
  t.equal(overTools.code, 1);
  t.match(
    overTools.stdout,
    `The server lists ${tools} tools, more than the budget of ${tools - 1} (--max-tools, or maxTools in a config file).`,
  );
  const overTokens = await runCli([...ONLY, '--max-tokens', String(tokens - 1), '--', 'node', REFERENCE]);
  t.equal(overTokens.code, 1);
  t.match(
    overTokens.stdout,
    /tools\/list costs [\d,]+ tokens, more than the budget of [\d,]+ \(o200k_base; --max-tokens, or maxTokens in a config file\)/,
  );
});

t.test('config file and library: the same budgets', async (t) => {
  const { tools, tokens } = await figures();
  const dir = tempDir();
  const config = join(dir, 'mcp-pd-check.config.json');
  writeFileSync(config, JSON.stringify({ command: ['node', REFERENCE], maxTools: tools - 1, maxTokens: tokens }));
  const run = await runCli([...ONLY, '--config', config]);
  t.equal(run.code, 1, 'maxTools from the config fails the run');
  t.match(
    run.stdout,
    /more than the budget of \d+ \(--max-tools, or maxTools in a config file\)/,
    'the finding names the config key beside the flag',
  );
  t.notMatch(run.stdout, /more than the budget of [\d,]+ \(o200k_base/, 'maxTokens at the figure passes');
  const library = (maxTools: number, maxTokens: number) =>
    checkServer({
      command: ['node', REFERENCE],
      only: ['mcp-tool-budget'],
      explore: 0,
      protocol: '2025-11-25',
      maxTools,
      maxTokens,
    });
  t.equal((await library(tools, tokens)).results[0].status, 'pass');
  const over = await library(tools, tokens - 1);
  t.equal(over.results[0].status, 'fail');
  t.same(
    over.results[0].findings.filter((f) => f.level === 'error').map((f) => f.code),
    ['over-max-tokens'],
  );
  t.same(over.options?.maxTokens, tokens - 1, 'the report records the budget');
  const bad = await runCli([...ONLY, '--max-tools', 'many', '--', 'node', REFERENCE]);
  t.equal(bad.code, 2);
  t.match(bad.stderr, /--max-tools.*expected a whole number/);
});

t.test("150 tools: every report format says it is past VS Code's limit", async (t) => {
  const server = await startHttp(fixtureBundle('mcp-tool-budget--past-client-limits'));
  t.teardown(() => server.stop());
  const dir = tempDir();
  const formats = ['json', 'junit', 'sarif', 'github', 'markdown', 'html'];
  const run = await runCli([
    '--explore',
    '0',
    '--protocol',
    '2025-11-25',
    '--url',
    server.url,
    ...formats.flatMap((f) => ['--report', `${f}=${join(dir, `report.${f}`)}`]),
  ]);
  t.equal(run.code, 0, 'a warning, not a failure');
  t.match(
    run.stdout,
    /Client budgets: 150 tools, [\d,]+ tokens in tools\/list — past the 128 tools of VS Code \(Copilot\)/,
    "text: the verdict's budget line",
  );
  for (const format of formats) {
    const text = readFileSync(join(dir, `report.${format}`), 'utf8');
    t.match(text, /VS Code \(Copilot\)/, `${format}: names VS Code`);
    t.match(
      text,
      /150 tools against 128 tools|past the 128 tools of VS Code/,
      `${format}: past its limit, with the figure`,
    );
  }
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as CheckReport;
  t.match(
    report.verdict?.budgets?.clients.find((c) => c.client.startsWith('VS Code')),
    { fit: 'over', drops: true, figure: '150 tools', limit: '128 tools' },
  );
});

t.test(
  "between a client's soft limit and its limit, the budget line says both (not 'near' a limit four times away)",
  async (t) => {
    const sentence = budgetSentence({
      tools: 14,
      tokens: 2821,
      encoding: 'o200k_base',
      clients: budgetFits({ tools: 14, tokens: 2821 }),
    });
    t.match(
      sentence,
      /over 2,000 tokens \(1 % of a 200k context\), below the 10,000 tokens \(5 % of a 200k context\) of MCP client best practices/,
    );
    t.notMatch(sentence, /near the/);
  },
);
