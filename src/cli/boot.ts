// The CLI's bin (dist/cli/cli.js): it runs the CLI's one CommonJS bundle (dist/cli/main.cjs, made
// from src/cli/main.ts) from V8's code cache. Node 20 compiles every ES module anew at each start
// and has no compile cache of its own (Node 22's module.enableCompileCache); compiling and linking
// the bundle's chunks was half of what `lint` of one file waited for. The cache is written once, by
// the first run, into the user's cache folder (src/util/cache-folder.ts); where none can be written
// the CLI starts without one. V8 refuses a cache of another build, Node or set of flags (the
// bundle's hash and Node's version name the file; a refused one is rewritten), and the caches of
// builds no longer run are dropped, the newest few kept (versions that npx alternates between).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { userCacheFolder } from '../util/cache-folder.js';

/** The bundle's content hash and the package's version, set by src/build/bundle-cli.mjs. */
declare const CLI_BUNDLE_HASH: string;
declare const CLI_VERSION: string;

// `--version` alone needs nothing of the bundle (a CI log's first line): answered before it loads,
// as commander's -V, --version would answer it.
const [, , ...args] = process.argv;
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${CLI_VERSION}\n`);
  process.exit(0);
}

/** What the bundle calls for `import()` of a package it does not contain (a vm.Script cannot import on Node 20). */
const IMPORT = Symbol.for('mcp-pd-check.import');

const folder = dirname(fileURLToPath(import.meta.url));
const bundle = join(folder, 'main.cjs');
const cacheFolder = userCacheFolder();
const cacheFile = cacheFolder && join(cacheFolder, `main-${CLI_BUNDLE_HASH}-${process.version}-${process.arch}.v8`);
/** The code caches kept, of builds and Nodes: a few MB each. */
const CODE_CACHES_KEPT = 4;

let cachedData: Buffer | undefined;
try {
  if (cacheFile) cachedData = readFileSync(cacheFile);
} catch {
  // The first run: it writes the cache.
}
// CommonJS's wrapper, on the bundle's first line (its line numbers stay those of the file).
const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(bundle, 'utf8')}\n})`;
const script = new Script(source, { filename: bundle, ...(cachedData ? { cachedData } : {}) });
if (cacheFile && (!cachedData || script.cachedDataRejected)) process.once('exit', () => saveCache(script, cacheFile));
(globalThis as Record<symbol, unknown>)[IMPORT] = (specifier: string) => import(specifier);
const module = { exports: {} };
(script.runInThisContext() as (...args: unknown[]) => void)(
  module.exports,
  createRequire(bundle),
  module,
  bundle,
  folder,
);

/** After the run: V8's code of the bundle, with the functions this run compiled, for the next start. */
function saveCache(compiled: Script, file: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    // Written whole, then renamed: runs that start together never read half a file.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, compiled.createCachedData());
    renameSync(partial, file);
    dropOldCaches(dirname(file));
  } catch {
    // A folder this user cannot write: no cache, the same run.
  }
}

/** The newest CODE_CACHES_KEPT code caches stay; older ones (of builds long replaced) go. */
function dropOldCaches(folder: string): void {
  const caches = readdirSync(folder)
    .filter((name) => /^main-.*\.v8$/.test(name))
    .map((name) => ({ name, at: statSync(join(folder, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { name } of caches.slice(CODE_CACHES_KEPT)) rmSync(join(folder, name), { force: true });
}
