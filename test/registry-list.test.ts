// A fleet from the MCP registry's list format (issue 57): `{ "servers": [ { "server": {…server.json…},
// "_meta": … } ] }`, one row per entry — its verdict, or why nothing it offers can run here. PATH
// holds only a stand-in npx (it starts this checkout's servers for the packages it knows, as
// test/docs/walk.ts does: no network), so uvx, docker and dnx are missing whatever this machine has.
import t from 'tap';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE, ROOT, runCli, startHttp, tempDir } from './helpers.js';
import type { CheckReport } from '../src/generated/report.js';

const SECRET = 'sk-registry-secret-0123456789';

t.test('a registry list of 20 entries: one row each, with its verdict or its reason', async (t) => {
  const http = await startHttp(REFERENCE);
  t.teardown(http.stop);
  const dir = tempDir();
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const memory = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
  writeFileSync(
    join(bin, 'npx'),
    [
      '#!/bin/sh',
      `case "$2" in`,
      `  @test/notes@*) exec "${process.execPath}" "${REFERENCE}" ;;`,
      `  @modelcontextprotocol/server-memory@*) exec "${process.execPath}" "${memory}" ;;`,
      'esac',
      'echo "stand-in npx: no package $2 here" >&2; exit 1',
      '',
    ].join('\n'),
  );
  chmodSync(join(bin, 'npx'), 0o755);
  const npm = (identifier: string, extra: Record<string, unknown> = {}) => ({
    registryType: 'npm',
    identifier,
    version: '1.0.0',
    transport: { type: 'stdio' },
    ...extra,
  });
  const entry = (name: string, body: Record<string, unknown>) => ({
    server: { name, version: '1.0.0', description: name, ...body },
    _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active' } },
  });
  const bearer = (variable: string) => ({
    type: 'streamable-http',
    url: http.url,
    headers: [
      {
        name: 'Authorization',
        value: `Bearer {${variable}}`,
        isRequired: true,
        isSecret: true,
        variables: { [variable]: { isRequired: true, isSecret: true } },
      },
    ],
  });
  const servers = [
    entry('io.test/notes', { packages: [npm('@test/notes')] }),
    { name: 'io.test/bare', version: '1.0.0', packages: [npm('@test/notes')] },
    entry('io.test/memory', {
      packages: [
        npm('@modelcontextprotocol/server-memory', {
          environmentVariables: [{ name: 'MEMORY_FILE_PATH', default: join(dir, 'memory.jsonl') }],
        }),
      ],
    }),
    entry('io.test/python-only', {
      packages: [{ registryType: 'pypi', identifier: 'notes-mcp', version: '1.0.0', transport: { type: 'stdio' } }],
    }),
    entry('io.test/python-or-npm', {
      packages: [{ registryType: 'pypi', identifier: 'notes-mcp', version: '1.0.0' }, npm('@test/notes')],
    }),
    entry('io.test/remote-secret', { remotes: [bearer('api_token')] }),
    entry('io.test/remote-secret-set', { remotes: [bearer('registry_test_token')] }),
    entry('io.test/remote-header-no-value', {
      remotes: [
        { type: 'streamable-http', url: http.url, headers: [{ name: 'X-API-Key', isRequired: true, isSecret: true }] },
      ],
    }),
    entry('io.test/docker', {
      packages: [{ registryType: 'oci', identifier: 'docker.io/test/notes', version: '1.0.0' }],
    }),
    entry('io.test/nuget', { packages: [{ registryType: 'nuget', identifier: 'Test.Notes', version: '1.0.0' }] }),
    'not a server',
    { server: { description: 'an entry without a name' } },
    entry('io.test/nothing', {}),
    entry('io.test/mcpb', { packages: [{ registryType: 'mcpb', identifier: 'https://example.invalid/notes.mcpb' }] }),
    entry('io.test/npm-needs-key', {
      packages: [
        npm('@test/notes', {
          environmentVariables: [{ name: 'REGISTRY_TEST_UNSET_KEY', isRequired: true, isSecret: true }],
        }),
      ],
    }),
    entry('io.test/http-package', {
      packages: [npm('@test/notes', { transport: { type: 'streamable-http', url: 'http://localhost:8080/mcp' } })],
    }),
    entry('io.test/remote-no-url', { remotes: [{ type: 'streamable-http' }] }),
    { server: { name: 'io.test/notes', version: '2.0.0', packages: [npm('@test/notes')] } },
    entry('io.test/bunx', { packages: [npm('@test/notes', { runtimeHint: 'bunx' })] }),
    entry('io.test/gone', { remotes: [{ type: 'sse', url: 'http://127.0.0.1:1/sse' }] }),
  ];
  t.equal(servers.length, 20);
  const file = join(dir, 'registry.json');
  writeFileSync(file, JSON.stringify({ servers, metadata: { count: servers.length, nextCursor: null } }));
  const report = join(dir, 'fleet.json');
  const run = await runCli(
    ['--explore', '0', '--only', 'pd-', '--jobs', '3', '--server-config', file, '--report', `json=${report}`],
    {
      env: {
        PATH: bin,
        REGISTRY_TEST_TOKEN: SECRET,
        API_TOKEN: undefined,
        X_API_KEY: undefined,
        REGISTRY_TEST_UNSET_KEY: undefined,
      },
    },
  );
  t.equal(
    run.code,
    3,
    `the worst: servers that cannot be started here (3), above malformed entries (2): ${run.stderr}`,
  );
  t.match(run.stdout, /^mcp-pd-check: 20 servers from .*registry\.json \(the MCP registry's list of servers\)/);
  const fleet = JSON.parse(readFileSync(report, 'utf8')) as {
    servers: Array<{ name: string; report?: CheckReport; error?: string; badEntry?: boolean; note?: string }>;
  };
  t.equal(fleet.servers.length, 20, 'one row per entry');
  const rows = Object.fromEntries(fleet.servers.map((s) => [s.name, s]));
  const verdict = (name: string) => rows[name]?.report?.verdict?.implements;
  const reason = (name: string) => rows[name]?.error ?? '';
  for (const name of [
    'io.test/notes',
    'io.test/bare',
    'io.test/python-or-npm',
    'io.test/remote-secret-set',
    'io.test/notes@2.0.0',
  ])
    t.equal(verdict(name), 'yes', `${name}: checked, yes`);
  t.equal(verdict('io.test/memory'), 'no', 'server-memory: checked, no');
  t.match(
    rows['io.test/python-or-npm']?.note,
    /^chose the npm package '@test\/notes'; not: pypi package 'notes-mcp' \(uvx is not on PATH\)$/,
    'the choice and why not the other',
  );
  const reasons: Array<[string, RegExp, boolean]> = [
    ['io.test/python-only', /nothing it offers can run here: pypi package 'notes-mcp': uvx is not on PATH/, false],
    [
      'io.test/remote-secret',
      /remote http:\/\/127\.0\.0\.1:\d+\/mcp: header Authorization needs \{api_token\} \(a secret\): set the environment variable API_TOKEN/,
      true,
    ],
    [
      'io.test/remote-header-no-value',
      /it needs the header X-API-Key \(a secret\): set the environment variable X_API_KEY/,
      true,
    ],
    ['io.test/docker', /oci package 'docker\.io\/test\/notes': docker is not on PATH/, false],
    ['io.test/nuget', /nuget package 'Test\.Notes': dnx is not on PATH/, false],
    ['entry 11', /malformed entry: entry 11 is not an object/, true],
    ['entry 12', /malformed entry: entry 12 has no name/, true],
    ['io.test/nothing', /malformed entry: neither packages nor remotes/, true],
    ['io.test/mcpb', /no way to start registry type 'mcpb'/, true],
    ['io.test/npm-needs-key', /set the required environment variable REGISTRY_TEST_UNSET_KEY/, true],
    ['io.test/http-package', /its transport is streamable-http; a package is started and checked over stdio/, true],
    ['io.test/remote-no-url', /remote 1: it has no url/, true],
    ['io.test/bunx', /no way to start registry type 'npm' with runtimeHint 'bunx'/, true],
    ['io.test/gone', /cannot be checked/, false],
  ];
  for (const [name, why, bad] of reasons) {
    t.notOk(rows[name]?.report, `${name}: not checked`);
    t.match(reason(name), why, `${name}: its reason`);
    t.equal(
      rows[name]?.badEntry === true,
      bad,
      `${name}: ${bad ? 'the entry as written (exit 2)' : 'cannot be started here (exit 3)'}`,
    );
  }
  t.equal(Object.keys(rows).length, 6 + reasons.length, 'every entry is a verdict or a reason');
  t.equal(run.stdout.split('\n\n')[1]?.trim().split('\n').length, 21, 'the table: a head and 20 rows');
  t.notOk(
    run.stdout.includes(SECRET) || run.stderr.includes(SECRET) || readFileSync(report, 'utf8').includes(SECRET),
    'the header secret is never printed',
  );
});

t.test(
  'registry entries the registry marks deleted are skipped (a row that says so, exit 0); deprecated ones are checked and say it',
  async (t) => {
    const http = await startHttp(REFERENCE);
    t.teardown(http.stop);
    const dir = tempDir();
    const status = (value: string) => ({ 'io.modelcontextprotocol.registry/official': { status: value } });
    const remote = { remotes: [{ type: 'streamable-http', url: http.url }] };
    const file = join(dir, 'registry.json');
    writeFileSync(
      file,
      JSON.stringify({
        servers: [
          { server: { name: 'io.test/active', version: '1.0.0', ...remote }, _meta: status('active') },
          { server: { name: 'io.test/old', version: '1.0.0', ...remote }, _meta: status('deprecated') },
          // Deleted: what it offers is never started (this one could not be anyway).
          {
            server: {
              name: 'io.test/removed',
              version: '1.0.0',
              remotes: [{ type: 'streamable-http', url: 'http://127.0.0.1:1/mcp' }],
            },
            _meta: status('deleted'),
          },
        ],
      }),
    );
    const json = join(dir, 'fleet.json');
    const junit = join(dir, 'fleet.xml');
    const run = await runCli([
      '--explore',
      '0',
      '--only',
      'pd-minimal-descriptions',
      '--server-config',
      file,
      '--report',
      `json=${json}`,
      '--report',
      `junit=${junit}`,
    ]);
    t.equal(run.code, 0, `a deleted entry costs no exit code: ${run.stderr}`);
    t.match(
      run.stdout,
      /io\.test\/removed\s+skipped\s+skipped: deleted from the registry/,
      'its row says skipped, and why',
    );
    const rows = Object.fromEntries(
      (
        JSON.parse(readFileSync(json, 'utf8')) as {
          servers: Array<{ name: string; skipped?: boolean; note?: string; report?: unknown }>;
        }
      ).servers.map((s) => [s.name, s]),
    );
    t.equal(rows['io.test/removed']?.skipped, true, 'the JSON marks it skipped');
    t.notOk(rows['io.test/removed']?.report, 'and it was not checked');
    t.match(rows['io.test/old']?.note, /^deprecated in the registry$/, 'a deprecated entry is checked and says it');
    t.ok(rows['io.test/old']?.report, 'checked');
    t.match(
      readFileSync(junit, 'utf8'),
      /<testcase classname="mcp-pd-check" name="io\.test\/removed: skipped" time="0\.000">\n\s+<skipped message="skipped: deleted from the registry/,
      'JUnit: a skipped test, not an error',
    );
    const merged = await runCli(['merge', json, '--format', 'markdown']);
    t.equal(merged.code, 0, `merged: still exit 0: ${merged.stderr}`);
    t.match(merged.stdout, /### io\.test\/removed: skipped/, 'the merge keeps it skipped');
  },
);
