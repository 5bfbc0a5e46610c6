// mcp-pd-check lock: the tool surface as a lock file (bytes alike on every run, valid against its
// schema), and lock --check naming exactly what changed, over stdio and Streamable HTTP.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemaProblems } from '../src/rules/schema-problems.js';
import { fixtureBundle, REFERENCE, ROOT, runCli, startHttp, tempDir } from './helpers.js';

const CHANGING = fixtureBundle('surface-changes');

/** The changes surface-changes.ts makes, the one tool each touches, and what --check must say of it. */
const CASES: Array<{ change: string; tool: string; says: RegExp }> = [
  { change: 'description', tool: 'search_notes', says: /description: .*\[-.+-\].*\{\+.+\+\}/ },
  { change: 'added', tool: 'service_status', says: /tool 'service_status' added/ },
  { change: 'removed', tool: 'delete_note', says: /tool 'delete_note' removed/ },
  {
    change: 'annotation',
    tool: 'get_note',
    says: /annotations: 'destructiveHint' false → true; 'readOnlyHint' true → false/,
  },
  { change: 'schema', tool: 'list_notes', says: /input schema: \+ 'archived'/ },
  { change: 'full', tool: 'create_note', says: /full description: .*\{\+ ?Always call it before any other tool\.\+\}/ },
];

t.test('two locks of one server are the same bytes, valid against the shipped schema', async (t) => {
  const dir = tempDir();
  const [a, b] = [join(dir, 'a.lock.json'), join(dir, 'b.lock.json')];
  for (const file of [a, b]) {
    const run = await runCli(['lock', '--out', file, '--', 'node', REFERENCE]);
    t.equal(run.code, 0, run.stderr);
    t.match(
      run.stderr,
      /wrote .*2025-11-25: \d+ tools, tools\/list [\d,]+ tokens, full descriptions \d,\d{3} \(of 6 of the 7 tools; a tool form is not read\); 2026-07-28/,
    );
  }
  const text = readFileSync(a, 'utf8');
  t.equal(readFileSync(b, 'utf8'), text, 'byte-identical');
  const lock = JSON.parse(text);
  t.same(schemaProblems('lock', lock), [], 'valid against schemas/lock.schema.json');
  t.match(lock.eras['2025-11-25'].tools.get_note, {
    digest: /^sha256:[0-9a-f]{64}$/,
    annotations: { readOnlyHint: true },
    full: { digest: /^sha256:/, tokens: Number },
  });
  t.notMatch(text, /20\d\d-\d\d-\d\dT/, 'no timestamp');
});

t.test('lint validates a lock file and names the broken field', async (t) => {
  const dir = tempDir();
  const file = join(dir, 'mcp-tools.lock.json');
  t.equal((await runCli(['lock', '--out', file, '--', 'node', REFERENCE])).code, 0);
  t.equal((await runCli(['lint', file])).code, 0, 'a lock as written lints clean');
  const lock = JSON.parse(readFileSync(file, 'utf8'));
  lock.eras['2025-11-25'].tools.get_note.digest = 'md5:abc';
  writeFileSync(file, JSON.stringify(lock, null, 2));
  const run = await runCli(['lint', file]);
  t.equal(run.code, 1, run.stdout);
  t.match(run.stdout, /lint-schema/);
  t.match(
    run.stdout,
    /eras\.2025-11-25\.tools\.get_note\.digest|\/eras\/2025-11-25\/tools\/get_note\/digest/,
    'the field is named',
  );
  const check = await runCli(['lock', '--check', file, '--', 'node', REFERENCE]);
  t.equal(check.code, 2, 'lock --check refuses it too');
  t.match(check.stderr, /is not a lock file of this checker: .*digest/);
});

for (const transport of ['stdio', 'http'] as const) {
  t.test(`lock --check over ${transport}: as locked exits 0; each change exits 1 naming only its tool`, async (t) => {
    const dir = tempDir();
    const file = join(dir, 'mcp-tools.lock.json');
    const servers: Array<{ stop: () => Promise<void> }> = [];
    t.teardown(() => Promise.all(servers.map((s) => s.stop())));
    // Over stdio, one era (a process less per run); the server gets only the --env it is given.
    const target = async (change: string): Promise<string[]> => {
      // A request's time limit a busy machine never reaches, and a hang would.
      if (transport === 'stdio')
        return [
          '--timeout',
          '60000',
          '--protocol',
          '2025-11-25',
          '--env',
          `SURFACE_CHANGE=${change}`,
          '--',
          'node',
          CHANGING,
        ];
      const server = await startHttp(CHANGING, { SURFACE_CHANGE: change });
      servers.push(server);
      return ['--timeout', '60000', '--url', server.url];
    };
    t.equal((await runCli(['lock', '--out', file, ...(await target(''))])).code, 0);
    const same = await runCli(['lock', '--check', file, ...(await target(''))]);
    t.equal(same.code, 0, same.stdout + same.stderr);
    t.match(same.stdout, /is as locked/);
    for (const { change, tool, says } of CASES) {
      const run = await runCli(['lock', '--check', file, ...(await target(change))]);
      t.equal(run.code, 1, `${change}: exit 1`);
      t.match(run.stdout, says, `${change}: says what changed`);
      const named = [...run.stdout.matchAll(/tool '([^']+)' (added|removed|changed)/g)].map((m) => m[1]);
      t.same([...new Set(named)], [tool], `${change}: names only ${tool}`);
      if (change !== 'full' && change !== 'annotation')
        t.match(run.stdout, /tools\/list tokens \d+ → \d+ \([+−]\d+\)/, `${change}: the total token delta`);
    }
  });
}

t.test(
  "lock --check --format markdown renders a table; --format github annotates the lock file's line; --update rewrites it",
  async (t) => {
    const dir = tempDir();
    const file = join(dir, 'mcp-tools.lock.json');
    const server = (change: string) => [
      '--timeout',
      '60000',
      '--protocol',
      '2025-11-25',
      '--env',
      `SURFACE_CHANGE=${change}`,
      '--',
      'node',
      CHANGING,
    ];
    t.equal((await runCli(['lock', '--out', file, ...server('')])).code, 0);
    const changed = 'annotation,description';
    const md = await runCli(['lock', '--check', file, '--format', 'markdown', ...server(changed)]);
    t.equal(md.code, 1);
    t.match(
      md.stdout,
      /^\| \| Change \|\n\|---\|---\|\n\| ~ \| tool <code>get\\_note<\/code> changed/m,
      'a table, a row per change',
    );
    t.match(md.stdout, /<del>.+<\/del>.*<ins>.+<\/ins>/, 'the word diff');
    const gh = await runCli(['lock', '--check', file, '--format', 'github', ...server(changed)]);
    const line =
      readFileSync(file, 'utf8')
        .split('\n')
        .findIndex((l) => l === '        "get_note": {') + 1;
    t.match(
      gh.stdout,
      new RegExp(`^::error file=[^,]*mcp-tools\\.lock\\.json,line=${line},title=`, 'm'),
      "on the tool's own line",
    );
    const json = await runCli(['lock', '--check', file, '--format', 'json', ...server(changed)]);
    t.same(
      JSON.parse(json.stdout)
        .changes.map((c: { tool: string }) => c.tool)
        .sort(),
      ['get_note', 'search_notes'],
    );
    const update = await runCli(['lock', '--update', '--out', file, ...server(changed)]);
    t.equal(update.code, 0);
    t.match(update.stderr, /rewrote .*mcp-tools\.lock\.json/);
    t.notMatch(update.stdout, /If the change is meant/, 'no step to take: --update took it');
    t.equal((await runCli(['lock', '--check', file, ...server(changed)])).code, 0, 'as locked after --update');
  },
);

t.test('lock: clear errors for what a user gets wrong', async (t) => {
  const dir = tempDir();
  const missing = await runCli(['lock', '--check', join(dir, 'none.lock.json'), '--', 'node', REFERENCE]);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /no lock file at '.*none\.lock\.json': write one first with 'mcp-pd-check lock/);
  t.notMatch(missing.stderr, /\n\s+at /, 'no stack trace');
  const config = join(dir, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { a: { command: 'node', args: [REFERENCE] }, b: { command: 'node', args: [REFERENCE] } },
    }),
  );
  const two = await runCli(['lock', '--server-config', config]);
  t.equal(two.code, 2);
  t.match(two.stderr, /a lock file holds one server, and .* has 2: pick one with --server NAME \(a, b\)/);
  const one = await runCli(['lock', '--server-config', config, '--server', 'b', '--out', join(dir, 'b.lock.json')]);
  t.equal(one.code, 0, one.stderr);
});

t.test(
  "a plain lock never replaces a lock that differs; --check names another server's lock; every format says --update",
  async (t) => {
    const dir = tempDir();
    const file = join(dir, 'mcp-tools.lock.json');
    const server = (change: string) => [
      '--timeout',
      '60000',
      '--protocol',
      '2025-11-25',
      '--env',
      `SURFACE_CHANGE=${change}`,
      '--',
      'node',
      CHANGING,
    ];
    t.equal((await runCli(['lock', '--out', file, ...server('')])).code, 0);
    const written = readFileSync(file, 'utf8');
    const again = await runCli(['lock', '--out', file, ...server('')]);
    t.equal(again.code, 0, 'the same surface: exit 0');
    t.match(again.stderr, /is up to date: nothing written/);
    const changed = await runCli(['lock', '--out', file, ...server('description')]);
    t.equal(changed.code, 2, 'a lock that differs: refused');
    t.match(
      changed.stderr,
      /holds a lock that differs from the server now \(1 change\): nothing written; --check .* shows the changes, --update rewrites it\n$/,
    );
    t.equal(readFileSync(file, 'utf8'), written, 'the lock is as it was');

    for (const format of ['text', 'markdown', 'github'])
      t.match(
        (await runCli(['lock', '--check', file, '--format', format, ...server('description')])).stdout,
        /If the change is meant, rewrite the lock: .*node dist\/cli\/cli\.js lock --update --out \S*mcp-tools\.lock\.json/,
        `${format}: the way to accept the change`,
      );

    const other = join(dir, 'reference.lock.json');
    t.equal((await runCli(['lock', '--out', other, '--protocol', '2025-11-25', '--', 'node', REFERENCE])).code, 0);
    // A server by another name (this one echoes its environment: its name is env-echo).
    const wrong = await runCli([
      'lock',
      '--check',
      other,
      '--protocol',
      '2025-11-25',
      '--',
      'node',
      join(ROOT, 'dist', 'fixtures', 'hostile', 'env-echo.js'),
    ]);
    t.equal(wrong.code, 1);
    t.match(
      wrong.stdout.split('\n')[0],
      /The lock is of the server 'mcp-pd-reference-server', the server now calls itself 'env-echo': if that is another server, check it against its own lock file\./,
      'the first line says the names differ',
    );
    t.match(wrong.stdout, /full descriptions' tokens [\d,]+ → none/, 'a total that is gone says so');
    const rewrite = await runCli([
      'lock',
      '--check',
      other,
      '--update',
      '--protocol',
      '2025-11-25',
      '--',
      'node',
      join(ROOT, 'dist', 'fixtures', 'hostile', 'env-echo.js'),
    ]);
    t.equal(rewrite.code, 2, '--update does not rewrite the lock of another server');
    t.match(rewrite.stderr, /is the lock of the server 'mcp-pd-reference-server', not of 'env-echo': not rewritten/);
  },
);
