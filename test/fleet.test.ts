// --server-config: the servers users already wrote down, checked in one run.
import t from 'tap';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { REFERENCE, ROOT, runCli, startHttp, tempDir } from './helpers.js';
import type { CheckReport } from '../src/generated/report.js';

const FILESYSTEM = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem');
const SECRET = 'sk-fleet-secret-0123456789';

t.test(
  'an mcpServers file (JSONC): reference over stdio and HTTP, server-filesystem; a table, the worst exit code, no secret in any format',
  async (t) => {
    const server = await startHttp(REFERENCE);
    t.teardown(server.stop);
    const dir = tempDir();
    const config = join(dir, 'claude_desktop_config.json');
    writeFileSync(
      config,
      `{
    // as Claude Desktop keeps it
    "mcpServers": {
      "reference": { "command": "node", "args": [${JSON.stringify(REFERENCE)}], "env": { "API_TOKEN": "${SECRET}" } },
      "reference-http": { "url": "${server.url}" },
      "filesystem": { "command": "node", "args": [${JSON.stringify(join(FILESYSTEM, 'dist', 'index.js'))}, "\${env:FLEET_SANDBOX}"] },
    }
  }`,
    );
    const env = { FLEET_SANDBOX: tempDir() };
    const text = await runCli(
      [
        '--explore',
        '0',
        '--jobs',
        '2',
        '--server-config',
        config,
        '--report',
        `json=${join(dir, 'fleet.json')}`,
        '--report',
        `junit=${join(dir, 'fleet.xml')}`,
      ],
      { env },
    );
    t.equal(text.code, 1, 'the worst exit code: server-filesystem fails');
    t.match(text.stdout, /3 servers from .*claude_desktop_config\.json \(an mcpServers file/, 'the shape is said');
    t.notMatch(text.stderr, /3 servers in /, 'once: the text report on stdout says it, stderr does not again');
    t.match(text.stdout, /\nreference +yes +/, 'reference: yes');
    t.match(text.stdout, /\nreference-http +yes +/, 'reference over HTTP: yes');
    t.match(
      text.stdout,
      /\nfilesystem +no +\d+ +2,\d{3} → ≈\d+/,
      'filesystem: no, with its tokens today and estimated minimal',
    );
    const json = JSON.parse(readFileSync(join(dir, 'fleet.json'), 'utf8')) as {
      servers: Array<{ name: string; report?: { verdict?: { implements: string } } }>;
    };
    t.same(
      json.servers.map((s) => [s.name, s.report?.verdict?.implements]),
      [
        ['reference', 'yes'],
        ['reference-http', 'yes'],
        ['filesystem', 'no'],
      ],
      'the JSON holds every report',
    );
    const junit = readFileSync(join(dir, 'fleet.xml'), 'utf8');
    t.equal(junit.match(/<testsuite /g)?.length, 3, 'JUnit: one suite per server');
    for (const [what, out] of [
      ['text', text.stdout + text.stderr],
      ['json', readFileSync(join(dir, 'fleet.json'), 'utf8')],
      ['junit', junit],
    ] as const) {
      t.notOk(out.includes(SECRET), `the env secret appears in no ${what} output`);
    }
  },
);

t.test(
  "VS Code's mcp.json (stdio, http, server-filesystem): ${input:…} from --env, or a one-line error naming it",
  async (t) => {
    const server = await startHttp(REFERENCE);
    t.teardown(server.stop);
    const dir = tempDir();
    const config = join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'token', password: true }],
        servers: {
          notes: { type: 'stdio', command: 'node', args: [REFERENCE], env: { NOTES_TOKEN: '${input:token}' } },
          'notes-http': { type: 'http', url: server.url, headers: { Authorization: 'Bearer ${input:token}' } },
          files: { type: 'stdio', command: 'node', args: [join(FILESYSTEM, 'dist', 'index.js'), tempDir()] },
        },
      }),
    );
    // An entry that cannot be resolved is that server's row: the others are checked all the same.
    const missing = await runCli(['--explore', '0', '--only', 'pd-', '--server-config', config]);
    t.equal(missing.code, 2, 'a usage error, once every server is done');
    t.match(missing.stdout, /\nnotes +error +--server-config/, 'a row of its own in the table');
    t.match(
      missing.stdout,
      /━━ notes ━━\n {2}.*server 'notes': \$\{input:token\} has no value; give it with --env token=VALUE/,
      'the whole reason under its heading',
    );
    t.match(missing.stdout, /\nfiles +no/, 'the server that needs no input is checked');
    const other = await runCli(['--explore', '0', '--only', 'pd-', '--server-config', config, '--server', 'files']);
    t.equal(other.code, 1, '--server: only that server, whatever the others lack');
    t.notMatch(other.stdout, /input:token/);
    const run = await runCli([
      '--explore',
      '0',
      '--only',
      'pd-',
      '--server-config',
      config,
      '--env',
      `token=${SECRET}`,
    ]);
    t.equal(run.code, 1, 'the worst exit code: server-filesystem fails');
    t.match(run.stdout, /VS Code's mcp\.json/);
    t.match(run.stdout, /\nnotes +yes/);
    t.match(run.stdout, /\nnotes-http +yes/, 'the header with the input reached the server (it accepts any)');
    t.match(run.stdout, /\nfiles +no/);
    t.notOk(run.stdout.includes(SECRET) || run.stderr.includes(SECRET), 'the input value is never printed');
  },
);

t.test(
  "VS Code's predefined variables: ${workspaceFolder} is the folder that holds .vscode/, ${userHome} the home folder",
  async (t) => {
    const workspace = tempDir();
    mkdirSync(join(workspace, '.vscode'));
    writeFileSync(join(workspace, 'server.mjs'), `import ${JSON.stringify(`file://${REFERENCE}`)};\n`);
    const config = join(workspace, '.vscode', 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        servers: { notes: { type: 'stdio', command: 'node', args: ['${workspaceFolder}${pathSeparator}server.mjs'] } },
      }),
    );
    const run = await runCli(['--explore', '0', '--only', 'pd-', '--server-config', config]);
    t.equal(run.code, 0, run.stdout + run.stderr);
    t.match(run.stdout, /\nnotes +yes/);
    const { readServerConfig } = await import('../src/library/server-config.js');
    writeFileSync(
      config,
      JSON.stringify({ servers: { home: { command: 'node', args: ['${userHome}', '${workspaceFolderBasename}'] } } }),
    );
    t.same((readServerConfig(config).servers[0]?.options.command as string[] | undefined)?.slice(1), [
      homedir(),
      basename(workspace),
    ]);
  },
);

t.test('a registry server.json for server-filesystem at its installed version runs it with npx', async (t) => {
  const version = (JSON.parse(readFileSync(join(FILESYSTEM, 'package.json'), 'utf8')) as { version: string }).version;
  const dir = tempDir();
  const config = join(dir, 'server.json');
  writeFileSync(
    config,
    JSON.stringify({
      name: 'io.github.modelcontextprotocol/server-filesystem',
      version,
      packages: [
        {
          registryType: 'npm',
          identifier: '@modelcontextprotocol/server-filesystem',
          version,
          runtimeHint: 'npx',
          transport: { type: 'stdio' },
          packageArguments: [{ type: 'positional', value: tempDir() }],
        },
      ],
    }),
  );
  const run = await runCli(['--explore', '0', '--format', 'json', '--server-config', config]);
  const json = JSON.parse(run.stdout) as {
    servers: Array<{ target?: string; report?: { verdict?: { implements: string } } }>;
  };
  t.match(
    json.servers[0]?.target ?? '',
    new RegExp(`^npx -y @modelcontextprotocol/server-filesystem@${version.replace(/\./g, '\\.')} `),
    'started as its runtimeHint says, at the pinned version',
  );
  t.equal(json.servers[0]?.report?.verdict?.implements, 'no', 'and checked');
});

t.test(
  'bad input: each a one-line error naming the file and entry; a server that fails to start is a row, the others are checked',
  async (t) => {
    const dir = tempDir();
    const notJson = join(dir, 'broken.json');
    writeFileSync(notJson, '{ "mcpServers": ');
    t.match(
      (await runCli(['--server-config', notJson])).stderr,
      /'.*broken\.json' is not valid JSON: line 1, column 17: a value was expected/,
    );
    const unknown = join(dir, 'other.json');
    writeFileSync(unknown, '{ "name": "x" }');
    t.match((await runCli(['--server-config', unknown])).stderr, /not a shape this checker knows/);
    const stringPackages = join(dir, 'string-packages.json');
    writeFileSync(stringPackages, '{ "name": "io.test/x", "version": "1.0.0", "packages": "npm:foo" }');
    const said = await runCli(['--server-config', stringPackages]);
    t.match(
      said.stderr,
      /^mcp-pd-check: --server-config '.*string-packages\.json': "packages" holds a string; it must be an array \(server\.json's packages\[\]\)\n$/,
      'a known key with the wrong kind of value: said as such',
    );
    t.equal(said.code, 2);
    const mixed = join(dir, 'mixed.json');
    writeFileSync(
      mixed,
      JSON.stringify({
        mcpServers: { gone: { command: 'no-such-command-here' }, notes: { command: 'node', args: [REFERENCE] } },
      }),
    );
    t.match(
      (await runCli(['--server-config', mixed, '--server', 'nope'])).stderr,
      /has no server 'nope' \(it has 2: 'gone' and 'notes'\)/,
    );
    // Of many, the names like the one asked for first, and eight at most.
    const many = join(dir, 'many.json');
    writeFileSync(
      many,
      JSON.stringify({
        mcpServers: Object.fromEntries([
          ...Array.from({ length: 20 }, (_, i) => [`s${i + 1}`, { command: 'node' }]),
          ['notes-prod', { command: 'node' }],
        ]),
      }),
    );
    const wrong = await runCli(['--server-config', many, '--server', 'notes']);
    t.match(wrong.stderr, /has no server 'notes' \(it has 21: 'notes-prod', 's1', .* and 13 more\)\n$/);
    t.equal(wrong.stderr.trim().split('\n').length, 1, 'one line');
    const run = await runCli(['--explore', '0', '--only', 'pd-', '--server-config', mixed]);
    t.equal(run.code, 3, 'the worst exit code: a server that could not be started');
    t.match(run.stdout, /\ngone +error +.*cannot be checked/, 'the server that fails to start is a row');
    t.match(run.stdout, /\nnotes +yes/, 'the other is checked');
  },
);

t.test(
  'first contact: the text report of server-filesystem fits in 60 lines and ends with the init command',
  async (t) => {
    const sandbox = tempDir();
    const server = ['node', join(FILESYSTEM, 'dist', 'index.js'), sandbox];
    const run = await runCli(['--', ...server]);
    t.equal(run.code, 1);
    const lines = run.stdout.trimEnd().split('\n');
    t.ok(lines.length <= 60, `${lines.length} lines`);
    t.equal(
      lines[lines.length - 1],
      `  node dist/cli/cli.js init --out pd -- ${server.join(' ')}`,
      'the last line is the init command for this server, with the checker as this run started it',
    );
    t.match(run.stdout, /node dist\/cli\/cli\.js serve --descriptions pd -- /, 'and the serve line');
    // The SKIPPED heading counts each part where it is said: the lines, the verdict's list, the era not spoken.
    const heading =
      /\nSKIPPED \((\d+)\) — (\d+) on \d+ lines, (\d+) in the verdict above, (\d+) of an era the server does not speak/.exec(
        run.stdout,
      );
    t.ok(heading, 'the SKIPPED heading says where each skip is');
    const notTestable = /not testable without the resource: (.*)\n/.exec(run.stdout)?.[1].split(', ') ?? [];
    t.equal(Number(heading?.[3]), notTestable.length, 'as many in the verdict as it names');
    t.equal(
      Number(heading?.[2]) + Number(heading?.[3]) + Number(heading?.[4]),
      Number(heading?.[1]),
      'the parts add up to the count',
    );
    t.match(
      run.stdout,
      /\n {2}⚠ quality\/listed-too-long \(\d+ findings\), quality\/listed-how \(\d+ findings?\) — --verbose shows them\n/,
      "the quality rules' warnings are counted on one line: the score line sums them up",
    );
    t.equal(
      run.stdout.match(/not testable/gi)?.length,
      1,
      'the criteria not testable without the resource are said once',
    );
  },
);

t.test(
  'servers checked in parallel (--jobs 3) get what each gets alone (--jobs 1): a run cleans up only its own processes',
  async (t) => {
    // Each server runs as the child of a relay (the spy), as servers started through npx, uvx or a
    // shell do: cleaning up after one server must never reach another's.
    const spy = join(ROOT, 'dist', 'test', 'support', 'spy-server.js');
    const modules = join(ROOT, 'node_modules', '@modelcontextprotocol');
    const dir = tempDir();
    const relayed = (log: string, ...command: string[]) =>
      JSON.stringify({ command: 'node', args: [spy, join(dir, log), '--', 'node', ...command] });
    const config = join(dir, 'mcp.json');
    writeFileSync(
      config,
      `{ "mcpServers": {
    "reference": ${relayed('reference.jsonl', REFERENCE)},
    "memory": ${relayed('memory.jsonl', join(modules, 'server-memory', 'dist', 'index.js'))},
    "filesystem": ${relayed('filesystem.jsonl', join(modules, 'server-filesystem', 'dist', 'index.js'), tempDir())},
    "everything": ${relayed('everything.jsonl', join(modules, 'server-everything', 'dist', 'index.js'), 'stdio')}
  } }`,
    );
    const outcome = async (jobs: string) => {
      const file = join(dir, `fleet-${jobs}.json`);
      const run = await runCli(['--seed', '7', '--jobs', jobs, '--server-config', config, '--report', `json=${file}`], {
        env: { MEMORY_FILE_PATH: join(tempDir(), 'memory.jsonl') },
      });
      const fleet = JSON.parse(readFileSync(file, 'utf8')) as {
        servers: Array<{ name: string; report?: CheckReport; error?: string }>;
      };
      return {
        run,
        servers: Object.fromEntries(
          fleet.servers.map((s) => [
            s.name,
            {
              verdict: s.report?.verdict?.implements ?? s.error,
              statuses: Object.fromEntries((s.report?.results ?? []).map((r) => [r.id, r.status])),
            },
          ]),
        ),
      };
    };
    const alone = await outcome('1');
    const together = await outcome('3');
    t.same(Object.keys(together.servers).sort(), ['everything', 'filesystem', 'memory', 'reference']);
    for (const name of Object.keys(alone.servers))
      t.same(together.servers[name], alone.servers[name], `${name}: the same verdict and statuses`);
    t.notMatch(
      together.run.stdout + together.run.stderr,
      /SIGKILL/,
      'no server was killed that the run did not decide to stop',
    );
  },
);
