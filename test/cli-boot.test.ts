// The bin runs the CLI's bundle from V8's code cache (src/cli/boot.ts): the first run writes the
// cache, later runs use it, a cache V8 refuses is rewritten, and a folder where none can be
// written changes nothing but the speed. Every run must say exactly what a run without a cache says.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { userCacheFolder } from '../src/util/cache-folder.js';
import { ROOT, tempDir } from './helpers.js';

// A copy of dist/cli beside it: its packages and the validators resolve as the original's do.
const copy = join(ROOT, 'dist', `cli-boot-test-${process.pid}`);
cpSync(join(ROOT, 'dist', 'cli'), copy, { recursive: true });
rmSync(join(copy, '.cache'), { recursive: true, force: true });
t.teardown(() => rmSync(copy, { recursive: true, force: true }));
// The user's cache folder, as XDG_CACHE_HOME names it (src/util/cache-folder.ts).
const cacheHome = tempDir();
const cacheFolder = join(cacheHome, 'mcp-pd-check');

// A saved tools/list: its lint counts tokens, so the bundle imports a package it does not contain (gpt-tokenizer).
const LINTED = join(ROOT, 'fixtures', 'folders', 'tools-list', 'saved.json');

function lint(env: Record<string, string | undefined> = { XDG_CACHE_HOME: cacheHome }): {
  code: number | null;
  stdout: string;
  stderr: string;
} {
  const run = spawnSync(process.execPath, [join(copy, 'cli.js'), 'lint', '--format', 'json', LINTED], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    env: Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined)),
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** What a lint report says, without its times. */
function findings(stdout: string): unknown {
  return JSON.stringify(JSON.parse(stdout), (key, value: unknown) =>
    /^(durationMs|startedAt|finishedAt|ms|time)$/i.test(key) ? undefined : value,
  );
}

// The code caches (token counts are kept in the same folder: src/util/token-cache.ts).
const cacheFiles = () =>
  existsSync(cacheFolder) ? readdirSync(cacheFolder).filter((f) => /^main-.*\.v8/.test(f)) : [];

t.test('the first run writes the cache, the next uses it, and both say the same', async (t) => {
  const first = lint();
  t.equal(first.code, 1, 'the saved tools/list breaks rules: exit 1');
  t.match(
    first.stdout,
    /tokens in tools\/list \(o200k_base\)/,
    'tokens were counted (an import() of a package the bundle does not contain)',
  );
  t.equal(first.stderr, '', 'nothing on stderr');
  const files = cacheFiles();
  t.equal(files.length, 1, 'one cache file');
  t.match(
    files[0],
    new RegExp(`^main-[0-9a-f]{16}-${process.version.replace(/\./g, '\\.')}-${process.arch}\\.v8$`),
    "named by the bundle's hash, Node's version and the machine",
  );
  const written = statSync(join(cacheFolder, files[0])).mtimeMs;
  const bytes = readFileSync(join(cacheFolder, files[0]));
  const second = lint();
  t.equal(second.code, 1);
  t.equal(findings(second.stdout), findings(first.stdout), 'the same report from the cache');
  t.equal(statSync(join(cacheFolder, files[0])).mtimeMs, written, 'a cache V8 accepts is not written again');
  t.ok(readFileSync(join(cacheFolder, files[0])).equals(bytes), 'same bytes');
  t.notOk(existsSync(join(copy, '.cache')), 'nothing is written inside the installed package');
});

t.test("without XDG_CACHE_HOME the cache is in ~/.cache; old builds' caches go, the newest few stay", async (t) => {
  const home = tempDir();
  const folder = join(home, '.cache', 'mcp-pd-check');
  mkdirSync(folder, { recursive: true });
  const old = ['a', 'b', 'c', 'd', 'e'].map((n, i) => {
    const file = join(folder, `main-${n.repeat(16)}-v0.0.${i}-x64.v8`);
    writeFileSync(file, 'an old build');
    utimesSync(file, 1_000 + i, 1_000 + i);
    return file;
  });
  const run = lint({ HOME: home, XDG_CACHE_HOME: undefined });
  t.equal(run.code, 1);
  const kept = readdirSync(folder)
    .filter((f) => f.startsWith('main-'))
    .sort();
  t.equal(kept.length, 4, `four code caches kept (${kept.join(', ')})`);
  t.ok(
    kept.some((f) => f.startsWith(`main-`) && f.includes(process.version)),
    "this build's cache is one of them",
  );
  t.same(
    old.filter((f) => existsSync(f)).map((f) => f.slice(folder.length + 1)),
    old.slice(2).map((f) => f.slice(folder.length + 1)),
    'the two oldest went',
  );
});

t.test('a cache V8 refuses (another build, a broken file) is rewritten, and the run is the same', async (t) => {
  const reference = lint();
  const [file] = cacheFiles();
  t.ok(file, 'a cache to break');
  writeFileSync(join(cacheFolder, file), 'not V8 code at all');
  const run = lint();
  t.equal(run.code, reference.code);
  t.equal(findings(run.stdout), findings(reference.stdout), 'the same report');
  t.not(readFileSync(join(cacheFolder, file), 'utf8'), 'not V8 code at all', 'the broken cache was replaced');
  t.same(cacheFiles(), [file], 'and nothing else is left in the folder (no partial file)');
});

t.test('where no cache can be written, the CLI runs as well', async (t) => {
  const reference = lint();
  rmSync(cacheFolder, { recursive: true, force: true });
  // A file where the folder would be: mkdir fails even for root, as in a read-only install.
  writeFileSync(cacheFolder, '');
  const run = lint();
  t.equal(run.code, reference.code);
  t.equal(findings(run.stdout), findings(reference.stdout), 'the same report');
  t.equal(run.stderr, '', 'no complaint about the cache');
  t.ok(statSync(cacheFolder).isFile(), 'nothing was written');
});

t.test(
  "an internal error says where, in src/ files: the bundle's source map ships beside it and is read",
  async (t) => {
    const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli', 'cli.js'), '--help'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, MCP_PD_CHECK_TEST_INTERNAL_ERROR: '1' },
    });
    t.equal(run.status, 70, 'exit 70 (an internal error)');
    const [first, ...rest] = run.stderr.trimEnd().split('\n');
    t.match(
      first,
      /^mcp-pd-check: internal error: Error: an internal error forced by MCP_PD_CHECK_TEST_INTERNAL_ERROR \(src\/cli\/main\.ts:\d+:\d+\)$/,
      'one line: what, and where in src/',
    );
    t.match(rest.join('\n'), /at .*src\/cli\/main\.ts:\d+:\d+/, 'the stack names src/ files and lines');
    t.notMatch(run.stderr, /main\.cjs:\d+/, 'no frame of the minified bundle is left unmapped');
    t.ok(
      existsSync(join(ROOT, 'dist', 'cli', 'main.cjs.map')),
      'the map is beside the bundle (and packed with it: dist/cli is in files)',
    );
  },
);

t.test("the cache folder: XDG_CACHE_HOME when absolute (the spec's rule), else the home's .cache", async (t) => {
  t.equal(
    userCacheFolder({ XDG_CACHE_HOME: '/var/cache/me', HOME: '/home/me' }),
    join('/var/cache/me', 'mcp-pd-check'),
  );
  t.equal(
    userCacheFolder({ XDG_CACHE_HOME: 'relative/cache', HOME: '/home/me' }),
    join('/home/me', '.cache', 'mcp-pd-check'),
  );
  t.equal(userCacheFolder({ HOME: '/home/me' }), join('/home/me', '.cache', 'mcp-pd-check'));
});
