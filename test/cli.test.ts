import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI as CLI_PATH, REFERENCE, ROOT, fixtureBundle, reportSchemaErrors, runCli, tempDir } from './helpers.js';

t.test('a command that does not exist: exit 3, one clear line', async (t) => {
  const run = await runCli(['--', 'nonexistent-cmd-xyz']);
  t.equal(run.code, 3);
  t.equal(run.stdout, '');
  t.equal(run.stderr.trim().split('\n').length, 1, 'one line');
  t.match(run.stderr, /nonexistent-cmd-xyz.*not found/);
});

t.test('a server that prints non-JSON on stdout is told so', async (t) => {
  // It stalls forever after its line: a short start-up limit is no race.
  const run = await runCli([
    '--startup-timeout',
    '2000',
    '--',
    process.execPath,
    '-e',
    'console.log("Server listening!"); setTimeout(()=>{},1e9)',
  ]);
  t.equal(run.code, 3);
  t.match(run.stderr, /non-JSON to stdout: "Server listening!"/);
});

t.test('usage errors: exit 2 with a one-line reason and a pointer to --help', async (t) => {
  for (const [args, pattern] of [
    [[], /no server to check/],
    [['--timeout', 'soon', '--', 'node', REFERENCE], /--timeout.*whole number/],
    [['--sessions', '1', '--', 'node', REFERENCE], /--sessions.*from 2 to 256/],
    [
      ['--env', 'NOVALUE', '--', 'node', REFERENCE],
      /--env NOVALUE: the variable NOVALUE is not set in this environment/,
    ],
    [['--env', 'A B=1', '--', 'node', REFERENCE], /--env expects KEY=VALUE or KEY/],
    [['--format', 'yaml', '--', 'node', REFERENCE], /yaml.*Allowed choices are text, json/],
    [['--cwd', '/no/such/dir', '--', 'node', REFERENCE], /--cwd '\/no\/such\/dir' is not a directory/],
    [['--output', '/no/such/dir/r.json', '--', 'node', REFERENCE], /folder '\/no\/such\/dir' does not exist/],
    [['--bogus', '--', 'node', REFERENCE], /unknown option '--bogus'/],
    [['node server.js && rm -rf /'], /shell syntax/],
    // A typo of a subcommand: two neighbours swapped is one edit, so init, not lint.
    [['inti', '--out', 'pd'], /'inti' is not a program on PATH; did you mean 'mcp-pd-check init'\?/],
    // 'check' is what many CLIs call it: here it is the default command.
    [['check', '--help'], /'check' is not a program on PATH, and checking is mcp-pd-check's default command/],
    [
      ['serve', '--listen', '127.0.0.1:0', '--', 'node', REFERENCE],
      /expected a port alone: give --listen 0 --host 127\.0\.0\.1/,
    ],
    [
      ['--server-config', '/nonexistent.json'],
      /--server-config '\/nonexistent\.json' does not exist: give the config file that lists your servers/,
    ],
    [
      ['--transport', 'sse', '--protocol', '2026-07-28', '--url', 'http://127.0.0.1:9/mcp'],
      /2026-07-28 is spoken over Streamable HTTP only/,
    ],
  ] as Array<[string[], RegExp]>) {
    const run = await runCli(args);
    t.equal(run.code, 2, `exit 2 for ${JSON.stringify(args)}`);
    t.match(run.stderr, pattern);
    t.notMatch(run.stderr, /\n\s+at /, 'no stack trace');
  }
});

t.test('words: one warning is "1 warning"; serve refuses a bad --descriptions before it starts anything', async (t) => {
  const dir = tempDir();
  const file = join(dir, 'report.json');
  // The reference server over stdio: one check that warns (the HTTP-only ones skip).
  const run = await runCli([
    '--only',
    'pd-token-savings',
    '--protocol',
    '2025-11-25',
    '--output',
    file,
    '--',
    'node',
    fixtureBundle('pd-token-savings--verbose-list'),
  ]);
  t.match(run.stderr, /, 1 warning, /, '"1 warning", not "1 warnings"');
  const marker = join(dir, 'started');
  const serve = await runCli([
    'serve',
    '--descriptions',
    join(dir, 'nope'),
    '--',
    'node',
    '-e',
    `require('fs').writeFileSync(${JSON.stringify(marker)}, '1')`,
  ]);
  t.equal(serve.code, 2);
  t.match(serve.stderr, /--descriptions '.*nope' is not a folder with tool_descriptions\//);
  t.notOk(existsSync(marker), 'the upstream was never started');
});

t.test('--help teaches; --version prints the version', async (t) => {
  const help = await runCli(['--help']);
  t.equal(help.code, 0);
  for (const word of [
    '--timeout',
    '--sessions',
    '--safe-calls',
    '--format',
    '--output',
    '--fail-on',
    'Examples:',
    'Exit codes',
  ])
    t.match(help.stdout, word);
  // Every exit code of the README's table is in the footer, 70 (an internal error) too; and in every command's.
  const footer = (text: string) => text.slice(text.indexOf('Exit codes:'));
  const readmeCodes = [...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/^\| (\d+) \| /gm)].map((m) => m[1]);
  t.same(readmeCodes, ['0', '1', '2', '3', '70'], "the README's table");
  for (const code of readmeCodes) t.match(footer(help.stdout), new RegExp(`\\b${code} `), `--help says exit ${code}`);
  for (const command of ['init', 'lint', 'lock', 'merge', 'serve', 'explain', 'list-checks'])
    t.match(
      footer((await runCli([command, '--help'])).stdout),
      /\b70 an internal error/,
      `${command} --help says exit 70`,
    );
  const version = await runCli(['--version']);
  t.equal(version.code, 0);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  t.equal(version.stdout.trim(), pkg.version);
  // Answered by the bin before the bundle loads (src/cli/boot.ts); with other words, by commander: the same.
  t.equal((await runCli(['-V'])).stdout, version.stdout, '-V says the same');
  t.equal((await runCli(['--version', '--no-color'])).stdout, version.stdout, 'commander says the same');
});

t.test('one quoted string is split like a shell would, with $VARS', async (t) => {
  // CLI plumbing: one cheap check (the probe session only) proves the server was reached.
  const run = await runCli(['--format', 'json', '--only', 'mcp-tool-names', `node "$REF_PATH"`], {
    env: { REF_PATH: REFERENCE },
  });
  t.equal(run.code, 0);
  t.match(JSON.parse(run.stdout).target.command, /^node .*bundle\.js$/);
});

t.test('options after the server command belong to the server', async (t) => {
  // The reference server rejects unknown options, so this proves the checker passed --bogus on.
  const run = await runCli(['--', 'node', REFERENCE, '--bogus']);
  t.equal(run.code, 3);
  t.match(run.stderr, /unknown option '--bogus'/);
});

t.test('--env and --cwd reach the server', async (t) => {
  const dir = tempDir();
  const script =
    'if (process.env.PD_X !== "1" || !process.cwd().includes("mcp-pd-check-test-")) process.exit(9); import(process.argv[1])';
  const run = await runCli([
    '--only',
    'mcp-tool-names',
    '--env',
    'PD_X=1',
    '--cwd',
    dir,
    '--',
    process.execPath,
    '--input-type=module',
    '-e',
    script,
    REFERENCE,
  ]);
  t.equal(run.code, 0, run.stderr);
});

t.test('--output writes the report to a file; --fail-on never exits 0', async (t) => {
  const out = join(tempDir(), 'report.json');
  const run = await runCli([
    '--format',
    'json',
    '--only',
    'mcp-tool-names',
    '--output',
    out,
    '--fail-on',
    'never',
    '--',
    'node',
    REFERENCE,
  ]);
  t.equal(run.code, 0);
  t.equal(run.stdout, '');
  t.match(run.stderr, /\d+ passed, 0 failed.*report written to/);
  t.ok(existsSync(out));
  t.same(reportSchemaErrors(JSON.parse(readFileSync(out, 'utf8'))), []);
});

t.test('--fail-on warning turns a warning into exit 1', async (t) => {
  const lenient = await runCli([
    '--only',
    'pd-unknown-tool',
    '--explore',
    '0',
    '--',
    'node',
    fixtureBundle('pd-unknown-tool--no-entry'),
  ]);
  t.equal(lenient.code, 0);
  const strict = await runCli([
    '--only',
    'pd-unknown-tool',
    '--explore',
    '0',
    '--fail-on',
    'warning',
    '--',
    'node',
    fixtureBundle('pd-unknown-tool--no-entry'),
  ]);
  t.equal(strict.code, 1);
});

t.test('lint: exit 0 on a clean folder, 1 on findings, 2 on a missing path; JSON is schema-valid', async (t) => {
  const clean = await runCli(['lint', '--format', 'json', 'reference-server/tool_descriptions']);
  t.equal(clean.code, 0);
  // A folder of descriptions: the checks of cards and saved lists have nothing to read — skipped, with why, never
  // passed.
  const statuses = Object.fromEntries(
    (
      JSON.parse(clean.stdout) as {
        results: Array<{ id: string; status: string; findings: Array<{ message: string }> }>;
      }
    ).results.map((r) => [r.id, r.status]),
  );
  t.same(
    [statuses['lint-tools-list'], statuses['lint-toolcard-level'], statuses['lint-toolcard-consistency']],
    ['skip', 'skip', 'skip'],
    'nothing to check is a skip',
  );
  t.equal(statuses['lint-tool-descriptions'], 'pass');
  const said = await runCli(['lint', 'reference-server/tool_descriptions']);
  t.match(said.stdout, /lint-tools-list[^\n]*\s+Nothing to check: no saved tools\/list/, 'and says why');
  const bad = await runCli(['lint', '--format', 'json', 'fixtures/folders/tool-descriptions']);
  t.equal(bad.code, 1);
  t.same(reportSchemaErrors(JSON.parse(bad.stdout)), []);
  const only = await runCli([
    'lint',
    '--only',
    'lint-json-syntax,lint-schema',
    '--format',
    'json',
    'reference-server/tool_descriptions',
  ]);
  t.equal(only.code, 0, `--only takes one value and leaves the paths alone: ${only.stderr}`);
  t.same(
    JSON.parse(only.stdout).results.map((r: { id: string }) => r.id),
    ['lint-json-syntax', 'lint-schema'],
  );
  const missing = await runCli(['lint', 'no/such/folder']);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /no such file or folder: 'no\/such\/folder'/);
  const glob = await runCli(['lint', 'fixtures/folders/*/nothing-*.json']);
  t.equal(glob.code, 2);
  t.match(glob.stderr, /matches no file/);
  const text = await runCli(['lint', 'fixtures/folders/json-syntax']);
  t.match(text.stdout, /fixtures\/folders\/json-syntax\/trailing-comma.json:4:1/, 'text shows file:line:column');
});

t.test('lint: a file that is not JSON is a finding, not a crash', async (t) => {
  const dir = tempDir();
  const { writeFileSync } = await import('node:fs');
  writeFileSync(join(dir, 'notes.txt'), 'just text');
  writeFileSync(join(dir, 'blob.json'), Buffer.from([0, 1, 2, 3]));
  const run = await runCli(['lint', '--format', 'json', join(dir, 'notes.txt'), join(dir, 'blob.json')]);
  t.equal(run.code, 1);
  const messages = JSON.parse(run.stdout)
    .results.flatMap((r: { findings: Array<{ message: string }> }) => r.findings.map((f) => f.message))
    .join('\n');
  t.match(messages, /Not valid JSON/);
  t.match(messages, /binary file/);
});

const hasScript = spawnSync('script', ['--version']).status === 0;
t.test(
  'progress: a live line on a terminal, nothing with --quiet or without a terminal',
  { skip: hasScript ? false : 'script(1) is not available to give the checker a terminal' },
  async (t) => {
    const onTty = (extra: string) =>
      spawnSync(
        'script',
        ['-qec', `node ${CLI_PATH} ${extra} --sessions 3 -- node ${REFERENCE} > /dev/null`, '/dev/null'],
        { cwd: ROOT, encoding: 'utf8' },
      ).stdout;
    const shown = onTty('');
    t.match(shown, /\[1\/\d+\] pd-minimal-descriptions/, 'checks that read only the discovery start first');
    t.match(shown, /\[\d+\/\d+\] pd-description-required/);
    t.match(shown, /pd-session-isolation \(1 session\)/);
    t.match(shown, /\r\u001b\[K$/, 'the line is erased at the end');
    t.equal(onTty('--quiet --only mcp-tool-names'), '', '--quiet: nothing');
    const piped = await runCli(['--only', 'mcp-tool-names', '--', 'node', REFERENCE]);
    t.equal(piped.stderr, '', 'not a terminal: nothing');
    // A fleet on a terminal says how far it is.
    const config = join(tempDir(), 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { a: { command: 'node', args: [REFERENCE] }, b: { command: 'node', args: [REFERENCE] } },
      }),
    );
    const fleet = spawnSync(
      'script',
      ['-qec', `node ${CLI_PATH} --server-config ${config} --only mcp-tool-names > /dev/null`, '/dev/null'],
      { cwd: ROOT, encoding: 'utf8' },
    ).stdout;
    t.match(fleet, /\[0\/2 servers done\] checking a…/, 'a fleet shows which server is being checked');
    t.match(fleet, /\[1\/2 servers done\]/, 'and how many are done');
  },
);

t.test(
  'a heading counts what it shows: results of both eras on fewer lines, skipped checks grouped by reason',
  async (t) => {
    const run = await runCli(['--explore', '0', '--', 'node', REFERENCE]);
    t.match(run.stdout, /\nPASSED \(\d+ results of 2 eras, on \d+ lines: a check alike in every era is one\)\n/);
    t.match(
      run.stdout,
      /\nSKIPPED \(\d+\)\n[\s\S]*?\n {2}\(checks with the same reason on one line \(\d+ lines\)[^)]*: --verbose shows each in full\)\n/,
    );
  },
);

t.test('Ctrl-C: the run says it was interrupted and exits 130', async (t) => {
  const child = spawn(process.execPath, [CLI_PATH, '--', 'node', fixtureBundle('slow-reference')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  // Once the run has started a server (its signal handling is in place then); a hang guard, not a timing test.
  const children = () => {
    try {
      return readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim();
    } catch {
      return '';
    }
  };
  for (const until = Date.now() + 60_000; !children() && Date.now() < until;)
    await new Promise((resolve) => setTimeout(resolve, 50));
  child.kill('SIGINT');
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  t.equal(code, 130, 'exit 130');
  t.match(
    stderr,
    /mcp-pd-check: interrupted \(Ctrl-C\); no report was written, and the servers it started were stopped\n$/,
  );
});
