// Build step: the CLI as one bundle (plus chunks for what it loads only when needed). A CLI start
// loads ~100 small modules otherwise, and resolving them costs more than running them: bundled,
// `--version` and the lint of one file start about twice as fast. The library (dist/src) stays
// unbundled. Packages with data files or dynamic requires of their own stay external.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The validators compiled at build time stay files of their own, read when first needed
 * (src/util/shipped-schemas.ts): from dist/cli their folder is ../src/generated/validators.
 */
const validatorFiles = {
  name: 'validator-files',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]src[\\/]util[\\/]shipped-schemas\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const from = '(`../generated/validators/';
      if (!text.includes(from)) throw new Error(`${args.path} no longer loads ${from}…: update src/build/bundle-cli.mjs`);
      return { contents: text.replace(from, '(`../src/generated/validators/'), loader: 'js' };
    });
  },
};
// Chunk names carry content hashes: stale ones from an earlier build would ship in the package.
rmSync(join(root, 'dist', 'cli'), { recursive: true, force: true });
await build({
  // The bundle keeps the name the package's bin has always had.
  // The tokenizer's thread is a file of its own, beside the chunks (src/util/tokens.ts finds it there).
  entryPoints: { cli: join(root, 'dist', 'src', 'cli', 'main.js'), 'token-worker': join(root, 'dist', 'src', 'util', 'token-worker.js') },
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
  plugins: [validatorFiles],
  // CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});
