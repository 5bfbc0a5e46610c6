// `mcp-pd-check init` (issue 16): from a real server to a folder the lint passes, without calling a tool;
// a folder of another server is never mixed into, and what init cannot do is said in one line.
import { isToolForm } from '../src/protocol/tool-form.js';
import t from 'tap';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { REFERENCE, ROOT, runCli, tempDir } from './helpers.js';
import { snapshot } from './support/folder-snapshot.js';
import { lintJson } from './support/lint-json.js';

const FILESYSTEM = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
const SPY = join(ROOT, 'dist', 'test', 'support', 'spy-server.js');

t.test('init against server-filesystem: a folder the lint passes, token figures, nothing overwritten', async (t) => {
  const sandbox = tempDir();
  const out = join(tempDir(), 'pd');
  const log = join(tempDir(), 'calls.jsonl');
  const run = await runCli(['init', '--out', out, '--', 'node', SPY, log, '--', 'node', FILESYSTEM, sandbox]);
  t.equal(run.code, 0, run.stderr);
  t.notOk(existsSync(log) && readFileSync(log, 'utf8').trim(), 'no tool was called');
  t.match(run.stdout, /^Wrote 32 files to .* for 14 tools\./);
  t.match(run.stdout, /Tokens of tools\/list \(o200k_base\), today → minimal/);
  t.match(run.stdout, /\n {2}read_file +[\d,]+ → +[\d,]+( +found first +\d+ %)?\n/, 'a figure per tool');
  const total = /\n {2}all +([\d,]+) → +([\d,]+) +found first +(\d+) %/.exec(run.stdout);
  const num = (s: string | undefined) => Number((s ?? 'NaN').replace(/,/g, ''));
  t.ok(
    total && Number(total[3]) >= 0 && Number(total[3]) <= 100,
    `beside it, how often the tools' own sentences find them first (${total?.[3]} %)`,
  );
  t.ok(total && num(total[2]) < num(total[1]), `the minimal list costs less (${total?.[1]} → ${total?.[2]})`);
  const saving =
    /\nSaving: (\d+) % — the list written costs ([\d,]+) tokens in every prompt \(today [\d,]+\), its full descriptions ([\d,]+) \(the files written and serve's for get_tool_descriptions\), read only when a tool is used; as pd-token-savings and lint count it behind serve; an estimate until the REVIEW: placeholders in them are filled/.exec(
      run.stdout,
    );
  t.ok(saving, 'the saving, as the check counts it');
  t.equal(saving?.[2], total?.[2], 'of the same minimal list');
  t.match(
    run.stdout,
    /No example of a call in the description of 13 tools \('read_file', .*\): none was made up/,
    'no example is invented, and the tools without one are named',
  );
  t.match(run.stdout, /Next:\n {2}1\. Review .*\n[\s\S]* {2}2\. Serve the folder[\s\S]* {2}3\. Run the checker/);

  // A card's review mark says what the annotations said: hints given as false are no "no hint".
  t.match(
    JSON.parse(readFileSync(join(out, '.well-known', 'mcp-tools', 'create_directory.json'), 'utf8'))['x-review'],
    /\(readOnlyHint false, destructiveHint false → mutating\)/,
  );
  for (const tool of ['read_file', 'write_file', 'list_allowed_directories']) {
    t.ok(existsSync(join(out, 'tool_descriptions', `${tool}.json`)), `tool_descriptions/${tool}.json`);
    t.ok(existsSync(join(out, '.well-known', 'mcp-tools', `${tool}.json`)), `.well-known/mcp-tools/${tool}.json`);
  }
  for (const file of ['tools-list.minimal.json', 'mcp-pd-check.config.json', '.github/workflows/mcp-pd-check.yml'])
    t.ok(existsSync(join(out, file)), file);
  const card = JSON.parse(readFileSync(join(out, '.well-known', 'mcp-tools', 'read_file.json'), 'utf8'));
  t.same([card.safety.side_effect_class, card.safety.human_approval_required], ['read', false], 'readOnlyHint → read');
  const write = JSON.parse(readFileSync(join(out, '.well-known', 'mcp-tools', 'write_file.json'), 'utf8'));
  t.match(
    write['x-review'],
    /^REVIEW: safety derived from the annotations \(destructiveHint → destructive, human approval required\)/,
    'each card carries its review mark',
  );
  t.same(
    [write.safety.side_effect_class, write.safety.human_approval_required],
    ['destructive', true],
    'destructiveHint → destructive, with approval',
  );
  // A file reader may read any secret it is pointed at: the guess says so, and says it is a guess.
  t.same([card.safety.secrets_exposure, card.safety.pii_exposure], ['reads_secret_material', 'medium']);
  t.match(card['x-review'], /secrets_exposure 'reads_secret_material' are guesses \(it reads what its caller names/);
  t.equal(write.safety.secrets_exposure, 'writes_secret_material');
  const minimal = JSON.parse(readFileSync(join(out, 'tools-list.minimal.json'), 'utf8')) as {
    tools: Array<{ inputSchema: Record<string, unknown> }>;
  };
  t.ok(
    minimal.tools.every((tool) => !('properties' in tool.inputSchema) || isToolForm(tool)),
    "the minimal list has no parameter details (but the tool form's: it is called before any fetch)",
  );
  t.equal(
    (minimal.tools[0] as { name?: string } | undefined)?.name,
    'get_tool_descriptions',
    'the tool form of the resource comes first',
  );

  const lint = await lintJson(out);
  t.equal(lint.code, 0, 'the lint passes');
  t.equal(lint.report.summary.failed + lint.report.summary.errors, 0, 'with no error');
  const review = lint.report.results
    .find((r) => r.id === 'lint-needs-review')!
    .findings.filter((f) => f.code === 'needs-review');
  t.ok(review.length >= 28, `review warnings are counted (${review.length})`);
  t.equal(
    review.filter((f) => f.location?.pointer === '/x-review').length,
    15,
    'one on each Tool Card (the tool form serve adds has one too)',
  );

  const text = await runCli(['lint', out]);
  const warningLines = text.stdout.split('\n').filter((l) => /^ {6}warning /.test(l));
  // A pair of near-duplicate descriptions is its own entry: it names both tools.
  const warningCodes = new Set(
    lint.report.results.flatMap((r) =>
      r.findings
        .filter((f) => f.level === 'warning')
        .map((f) => `${r.id}:${f.code}${f.code === 'near-duplicate' ? `:${String(f.args.tool)}` : ''}`),
    ),
  );
  t.ok(
    warningLines.length <= warningCodes.size,
    `the text folds one warning found in many files into one entry (${warningLines.length} lines for ${warningCodes.size} codes)`,
  );
  t.match(
    text.stdout,
    new RegExp(
      `\\+ the same in ${review.length - 1} more places, in 29 files: '\\.well-known/mcp-tools/create_directory\\.json'`,
    ),
    'and names the files it is in',
  );
  const verbose = await runCli(['lint', '--verbose', out]);
  t.ok(
    verbose.stdout.split('\n').filter((l) => /^ {6}warning /.test(l)).length >= review.length,
    '--verbose lists each on its own line',
  );

  const configFile = join(out, 'mcp-pd-check.config.json');
  // Run from a checkout (not a project's install): the published file of this version, a host that serves it.
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  t.equal(
    (JSON.parse(readFileSync(configFile, 'utf8')) as { $schema: string }).$schema,
    `https://unpkg.com/mcp-pd-check@${pkg.version}/schemas/config.schema.json`,
  );
  t.match(
    readFileSync(join(out, '.github', 'workflows', 'mcp-pd-check.yml'), 'utf8'),
    `config: ${relative(ROOT, configFile)}\n`,
    'the workflow names the config from where init ran',
  );
  const checked = await runCli(['--config', configFile, '--only', 'pd-,toolcard-files', '--format', 'json'], {
    cwd: tempDir(),
  });
  const served = JSON.parse(checked.stdout || '{}') as CheckReport;
  t.equal(
    checked.code,
    0,
    `the config starts the server behind serve with the folder from any folder: nothing fails (${checked.stderr.trim()} ${JSON.stringify(served.results?.filter((r) => r.status === 'fail').map((r) => r.id))})`,
  );
  t.match(served.target?.command, /serve --descriptions .* -- node .*server-filesystem/);
  t.equal(served.verdict?.implements, 'yes', 'and the verdict is yes');
  const cards = served.results?.find((r) => r.id === 'toolcard-files');
  t.ok(
    cards && !cards.findings.some((f) => f.code === 'cards-missing' || f.code === 'card-for-unlisted-tool'),
    `every tool behind serve has its card, the tool form serve adds too (${JSON.stringify(cards?.findings.filter((f) => /card/.test(f.code)).map((f) => f.args))})`,
  );

  const before = snapshot(out);
  const again = await runCli(['init', '--out', out, '--', 'node', SPY, log, '--', 'node', FILESYSTEM, sandbox]);
  t.equal(again.code, 0);
  t.match(again.stdout, /^Wrote 0 files to .*\nKept 32 that already exist \(--force overwrites them\)/);
  t.equal(snapshot(out), before, 'a second run without --force changes nothing');
  writeFileSync(join(out, 'tool_descriptions', 'read_file.json'), '{}');
  const forced = await runCli([
    'init',
    '--force',
    '--out',
    out,
    '--',
    'node',
    SPY,
    log,
    '--',
    'node',
    FILESYSTEM,
    sandbox,
  ]);
  t.match(forced.stdout, /^Wrote 32 files/);
  t.equal(snapshot(out), before, '--force writes the same files again (generation is deterministic)');
});

t.test(
  'init never mixes two servers in one folder: refused with nothing changed, --force writes; the lint flags a mixed folder',
  async (t) => {
    const out = join(tempDir(), 'pd');
    const first = await runCli(['init', '--out', out, '--', 'node', REFERENCE]);
    t.equal(first.code, 0, first.stderr);
    const before = snapshot(out);
    const again = await runCli(['init', '--out', out, '--', 'node', REFERENCE]);
    t.equal(again.code, 0, 'the same server again: its files are kept, nothing refused');
    const other = await runCli(['init', '--out', out, '--', 'node', FILESYSTEM, tempDir()]);
    t.equal(other.code, 2, 'another server: exit 2');
    t.match(
      other.stderr,
      /^mcp-pd-check: --out '[^']+' holds the files of another server \(tool_descriptions\/ describes 'create_note', .*which this server does not list; its mcp-pd-check\.config\.json names .*\): nothing was written\. Give a folder of its own, or --force/m,
      'one line that says why, and what to do',
    );
    t.equal(snapshot(out), before, 'nothing changed');
    const forced = await runCli(['init', '--force', '--out', out, '--', 'node', FILESYSTEM, tempDir()]);
    t.equal(forced.code, 0, '--force writes over it');
    const lint = await lintJson(out);
    t.equal(lint.code, 1, 'the lint of the mixed folder fails');
    t.ok(
      lint.report.results
        .find((r) => r.id === 'lint-tools-list')
        ?.findings.some((f) => f.code === 'other-server-files' && /create_note/.test(f.message)),
      "naming the other server's files",
    );
  },
);

t.test('init: usage errors are one line, exit 2; an unreachable server is exit 3', async (t) => {
  const missing = await runCli(['init', '--from', 'no-such-file.json']);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /^mcp-pd-check: --from 'no-such-file.json' does not exist\n/);
  const both = await runCli(['init', '--from', 'x.json', '--', 'node', 'server.js']);
  t.equal(both.code, 2);
  t.match(both.stderr, /give one source: --from FILE, --url URL or a server command/);
  const nothing = await runCli(['init']);
  t.equal(nothing.code, 2);
  t.match(nothing.stderr, /no server to check/);
  const file = join(tempDir(), 'tools.json');
  writeFileSync(file, JSON.stringify({ tools: [] }));
  const empty = await runCli(['init', '--out', join(tempDir(), 'pd'), '--from', file]);
  t.equal(empty.code, 2);
  t.match(empty.stderr, /^mcp-pd-check: --from .*tools\.json lists no tools: there is nothing to describe/);
  const underFile = await runCli(['init', '--out', join(file, 'pd'), '--', 'node', REFERENCE]);
  t.equal(underFile.code, 2, 'an --out that cannot be made is refused before the server starts');
  t.match(
    underFile.stderr,
    /^mcp-pd-check: --out '.*tools\.json\/pd' cannot be written: '.*tools\.json' is a file, not a folder; give a folder you can write to\n$/,
  );
  const down = await runCli(['init', '--out', tempDir(), '--', 'nonexistent-cmd-xyz']);
  t.equal(down.code, 3);
  t.equal(down.stderr.trim().split('\n').length, 1, 'one line');
});
