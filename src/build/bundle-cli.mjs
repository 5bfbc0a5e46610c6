// Build step: the CLI as one CommonJS bundle (dist/cli/main.cjs), started by a small bin
// (dist/cli/cli.js, from src/cli/boot.ts) from V8's code cache. A CLI start loads ~100 small modules
// otherwise, and resolving them costs more than running them; as ES modules Node 20 compiles them
// again at every start. The library (dist/src) stays unbundled. Packages with data files or dynamic
// requires of their own stay external.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inlineRequires } from './inline-requires.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * A file the bundle reads beside itself: the side thread's worker is a bundle of its own. (The
 * validators compiled at build time, ajv and re2js are bundled, and loaded on first use, as lazy
 * requires: so their code is in V8's code cache too.)
 */
const PATHS = [
  {
    file: /[\\/]dist[\\/]src[\\/]util[\\/]side-thread\.js$/,
    from: "'../protocol/side-thread-worker.js'",
    to: "'./side-thread-worker.js'",
  },
];
const besideFiles = {
  name: 'beside-files',
  setup(b) {
    for (const { file, from, to } of PATHS) {
      b.onLoad({ filter: file }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!text.includes(from))
          throw new Error(`${args.path} no longer has ${from}: update src/build/bundle-cli.mjs`);
        return { contents: text.replace(from, to), loader: 'js' };
      });
    }
  },
};
// The bundle replaces the whole folder: a code cache of an earlier build would be left in it.
rmSync(join(root, 'dist', 'cli'), { recursive: true, force: true });
const external = [
  '@secretlint/*',
  'gpt-tokenizer',
  'gpt-tokenizer/*',
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/sdk/*',
  '@modelcontextprotocol/core',
];
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // ESM builds first: jsonc-parser's UMD build requires its own files at run time.
  mainFields: ['module', 'main'],
  external,
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
};
const main = join(root, 'dist', 'cli', 'main.cjs');
// import() of a package the bundle does not contain: through the bin's (code run by a vm.Script
// cannot import on Node 20), or Node's own when the bundle is required directly. The prologue is
// esbuild's banner, strict first (a directive only counts as the first statement), so that the
// bundle's source map (dist/cli/main.cjs.map: an internal error's stack names src/ files, see
// src/cli/stack.ts) counts its lines and columns; import( is renamed by a name of the same length.
const prologue =
  '"use strict";var __bundle_url=require("node:url").pathToFileURL(__filename).href,__bimp=globalThis[Symbol.for("mcp-pd-check.import")]??(s=>import(s));';
await build({
  ...common,
  entryPoints: [join(root, 'dist', 'src', 'cli', 'main.js')],
  outfile: main,
  format: 'cjs',
  plugins: [inlineRequires, besideFiles],
  // Modules find files beside them (the side thread's worker, the package's root) from their URL: the bundle's.
  define: { 'import.meta.url': '__bundle_url' },
  banner: { js: prologue },
  // The map follows each module's own map (dist/src/**/*.js.map) back to src/**/*.ts; no sources in it.
  sourcemap: 'external',
  sourcesContent: false,
});
const IMPORT = /(?<![\w$.])import\((?=["'`])/g;
const text = readFileSync(main, 'utf8').replace(IMPORT, '__bimp(');
if (/(?<![\w$.])import\(/.test(text.slice(prologue.length)))
  throw new Error(
    'dist/cli/main.cjs has an import() of something other than a quoted name: src/build/bundle-cli.mjs cannot route it',
  );
if ('__bimp('.length !== 'import('.length)
  throw new Error("the renamed import( must keep its length (the source map's columns)");
writeFileSync(main, text);
// The run's side thread is a file of its own, beside the bundle (src/util/side-thread.ts finds it there).
await build({
  ...common,
  entryPoints: { 'side-thread-worker': join(root, 'dist', 'src', 'protocol', 'side-thread-worker.js') },
  outdir: join(root, 'dist', 'cli'),
  format: 'esm',
  // CommonJS dependencies call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
// The bin keeps the name the package's bin has always had; the bundle's hash names its code cache.
await build({
  ...common,
  entryPoints: [join(root, 'dist', 'src', 'cli', 'boot.js')],
  outfile: join(root, 'dist', 'cli', 'cli.js'),
  format: 'esm',
  banner: { js: '#!/usr/bin/env node' },
  define: {
    CLI_BUNDLE_HASH: JSON.stringify(createHash('sha256').update(readFileSync(main)).digest('hex').slice(0, 16)),
    CLI_VERSION: JSON.stringify(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version),
  },
});
chmodSync(join(root, 'dist', 'cli', 'cli.js'), 0o755);
chmodSync(main, 0o644);
