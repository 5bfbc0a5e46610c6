// Build step: the CLI as one bundle (plus chunks for what it loads only when needed). A CLI start
// loads ~100 small modules otherwise, and resolving them costs more than running them: bundled,
// `--version` and the lint of one file start about twice as fast. The library (dist/src) stays
// unbundled. Packages with data files or dynamic requires of their own stay external.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// Chunk names carry content hashes: stale ones from an earlier build would ship in the package.
rmSync(join(root, 'dist', 'cli'), { recursive: true, force: true });
await build({
  // The bundle keeps the name the package's bin has always had.
  entryPoints: { cli: join(root, 'dist', 'src', 'cli', 'main.js') },
  outdir: join(root, 'dist', 'cli'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // ESM builds first: jsonc-parser's UMD build requires its own files at run time.
  mainFields: ['module', 'main'],
  external: ['@secretlint/*', 'gpt-tokenizer', 'gpt-tokenizer/*', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*', '@modelcontextprotocol/core'],
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  // CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});
