import t from 'tap';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fixtureBundle, REFERENCE, REFERENCE_CARDS, ROOT, runCli, tempDir } from './helpers.js';

t.test('mcp-pd-check.config.json supplies what a command line can say; the command line wins', async (t) => {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'mcp-pd-check.config.json'),
    JSON.stringify({
      $schema: '../schemas/config.schema.json',
      command: ['node', fixtureBundle('pd-unknown-tool--no-entry')],
      sessions: 3,
      failOn: 'warning',
      only: ['pd-unknown-tool'],
      explore: 0,
      protocol: '2025-11-25',
      reports: { junit: 'out.xml' },
    }),
  );
  const fromFile = await runCli(['--format', 'json'], { cwd: dir });
  t.equal(fromFile.code, 1, 'failOn: warning from the file turns the warning into exit 1');
  const report = JSON.parse(fromFile.stdout);
  t.same(
    report.results.map((r: { id: string }) => r.id),
    ['pd-unknown-tool'],
    'only from the file',
  );
  t.same(
    report.eras.map((e: { era: string; checked: boolean }) => [e.era, e.checked]),
    [
      ['2025-11-25', true],
      ['2026-07-28', false],
    ],
    'protocol from the file: one era',
  );
  t.equal(report.options.sessions, 3);
  t.ok(existsSync(join(dir, 'out.xml')), 'reports from the file are written');
  const overridden = await runCli(['--fail-on', 'error'], { cwd: dir });
  t.equal(overridden.code, 0, '--fail-on on the command line wins');
  const otherServer = await runCli(['--format', 'json', '--only', 'mcp-tool-names', '--', 'node', REFERENCE], {
    cwd: dir,
  });
  t.match(JSON.parse(otherServer.stdout).target.command, /bundle\.js$/, 'a command on the command line wins');
  t.equal(otherServer.code, 0);
});

t.test('a config that breaks its schema is a usage error that names the fields', async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'c.json'), JSON.stringify({ sessions: 1, bogus: true, failOn: 'sometimes' }));
  const run = await runCli(['--config', join(dir, 'c.json'), '--', 'node', REFERENCE]);
  t.equal(run.code, 2);
  t.match(run.stderr, /unknown field 'bogus'/i);
  t.match(run.stderr, /'sessions' must be >= 2/);
  t.match(run.stderr, /'failOn' must be one of "error", "warning", "never"/);
  // Each mistake on a line of its own, under one line that names the file and the schema once.
  t.same(
    run.stderr
      .trim()
      .split('\n')
      .map((line) => line.replace(/'[^']*'.*/, '…')),
    [
      `mcp-pd-check: config ${join(dir, 'c.json')} has 3 mistakes (see schemas/config.schema.json):`,
      '  - Unknown field …',
      '  - …',
      '  - …',
    ],
  );
  t.notMatch(run.stderr, /\(the config schema\)/, 'the schema is named once');
  writeFileSync(join(dir, 'one.json'), JSON.stringify({ failOn: 'sometimes' }));
  const one = await runCli(['--config', join(dir, 'one.json'), '--', 'node', REFERENCE]);
  t.equal(one.stderr.trim().split('\n').length, 1, `one mistake, one line: ${one.stderr}`);
  const missing = await runCli(['--config', join(dir, 'nope.json'), '--', 'node', REFERENCE]);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /does not exist/);
});

t.test('a config with comments and a trailing comma is read the same by a run and by lint', async (t) => {
  const dir = tempDir();
  const file = join(dir, 'mcp-pd-check.config.json');
  writeFileSync(file, '{\n  // the gate\n  "failOn": "never",\n}\n');
  const plan = await runCli(['--config', file, '--explain-plan', '--', 'node', REFERENCE]);
  t.equal(plan.code, 0, plan.stderr);
  const lint = await runCli(['lint', '--format', 'json', file]);
  t.equal(lint.code, 0, lint.stdout.slice(0, 400));
  const statuses = Object.fromEntries(
    (JSON.parse(lint.stdout) as { results: Array<{ id: string; status: string }> }).results.map((r) => [
      r.id,
      r.status,
    ]),
  );
  t.equal(statuses['lint-json-syntax'], 'pass');
  t.equal(statuses['lint-schema'], 'pass', 'and it was read: its schema checked');
  // A config of any name (what --config takes) is read so too, its content telling what it is.
  const named = join(dir, 'ci-gate.json');
  writeFileSync(named, '{\n  "timeoutMs": 9000,\n  "only": ["pd-"],\n}\n');
  t.equal((await runCli(['--config', named, '--explain-plan', '--', 'node', REFERENCE])).code, 0, '--config reads it');
  const namedLint = JSON.parse((await runCli(['lint', '--format', 'json', named])).stdout) as {
    results: Array<{ id: string; status: string }>;
  };
  t.same(
    namedLint.results
      .filter((r) => ['lint-json-syntax', 'lint-file-kind', 'lint-schema'].includes(r.id))
      .map((r) => r.status),
    ['pass', 'pass', 'pass'],
    'and lint reads it as a config, not as broken JSON',
  );
  // Any other file is JSON: a trailing comma fails it, and what could not read it is not a pass.
  writeFileSync(join(dir, 'tools.json'), '{ "tools": [], }\n');
  const broken = await runCli(['lint', '--format', 'json', join(dir, 'tools.json')]);
  const brokenStatuses = Object.fromEntries(
    (JSON.parse(broken.stdout) as { results: Array<{ id: string; status: string }> }).results.map((r) => [
      r.id,
      r.status,
    ]),
  );
  t.equal(brokenStatuses['lint-json-syntax'], 'fail');
  for (const id of ['lint-file-kind', 'lint-schema', 'lint-no-secrets', 'lint-needs-review'])
    t.equal(brokenStatuses[id], 'skip', `${id}: nothing it could read, not a pass`);
});

t.test('lint reads the same config (format, only, failOn)', async (t) => {
  const dir = tempDir();
  const cfg = join(dir, 'c.json');
  writeFileSync(cfg, JSON.stringify({ only: ['lint-json-syntax'], failOn: 'never' }));
  const run = await runCli(['lint', '--config', cfg, '--format', 'json', 'fixtures/folders/tool-descriptions']);
  t.equal(run.code, 0, 'failOn: never');
  t.same(
    JSON.parse(run.stdout).results.map((r: { id: string }) => r.id),
    ['lint-json-syntax'],
  );
});

t.test('paths in a config file are relative to the file, wherever the checker runs', async (t) => {
  const dir = tempDir();
  mkdirSync(join(dir, 'server', 'pd'), { recursive: true });
  // A relative command word: found only if the command runs in cwd '..' of the config.
  writeFileSync(join(dir, 'server', 'ref.mjs'), `await import(${JSON.stringify(pathToFileURL(REFERENCE).href)});\n`);
  cpSync(REFERENCE_CARDS, join(dir, 'server', 'pd', 'cards'), { recursive: true });
  writeFileSync(
    join(dir, 'server', 'pd', 'mcp-pd-check.config.json'),
    JSON.stringify({
      command: ['node', 'ref.mjs'],
      cwd: '..',
      cards: 'cards',
      only: ['toolcard-files'],
      reports: { json: 'report.json' },
    }),
  );
  const run = await runCli(['--config', join('server', 'pd', 'mcp-pd-check.config.json')], { cwd: dir });
  t.equal(run.code, 0, run.stderr);
  const report = JSON.parse(readFileSync(join(dir, 'server', 'pd', 'report.json'), 'utf8'));
  const files = report.results.find((r: { id: string }) => r.id === 'toolcard-files');
  t.equal(files.status, 'pass', 'cards: found next to the config, not in the working directory');
  t.notOk(existsSync(join(dir, 'report.json')), 'the report is written next to the config');
});

t.test(
  "the config file knows exactly the option table's config keys, and every flag the CLI declares comes from the table",
  async (t) => {
    const { OPTIONS, attributeOf } = await import('../src/library/option-table.js');
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'config.schema.json'), 'utf8')) as {
      properties: Record<string, unknown>;
    };
    const keys = OPTIONS.flatMap((o) => (o.config ? [o.config] : []));
    t.same(
      [...new Set(keys)].sort(),
      Object.keys(schema.properties)
        .filter((k) => k !== '$schema' && k !== 'command')
        .sort(),
    );
    const { buildProgram } = await import('../src/cli/program.js');
    const program = buildProgram();
    for (const command of [
      program,
      ...program.commands.filter((c) => ['lint', 'init', 'serve', 'lock', 'merge'].includes(c.name())),
    ]) {
      const name = command === program ? 'check' : command.name();
      const declared = command.options
        .map((o) => o.attributeName())
        .filter((a) => a !== 'version')
        .sort();
      const table = OPTIONS.filter((o) => o.commands.includes(name as never))
        .map(attributeOf)
        .sort();
      t.same(declared, table, `${name}: its flags are the table's`);
    }
  },
);
