// Build step for the GitHub Action: the action's script and the CLI as two self-contained files,
// committed under src/action/bundle/ (JavaScript actions run what is committed: no npm ci, no build,
// the step starts in seconds). `node src/build/bundle-action.mjs [outdir]`; a test rebuilds it into a
// temporary folder and compares it with the committed one.
import { build } from 'esbuild';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inlineRequires } from './inline-requires.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outdir = resolve(process.argv[2] ?? join(root, 'src', 'action', 'bundle'));

await build({
  entryPoints: {
    action: join(root, 'dist', 'src', 'action', 'action.js'),
    cli: join(root, 'dist', 'src', 'cli', 'main.js'),
  },
  outdir,
  bundle: true,
  splitting: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  mainFields: ['module', 'main'],
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [inlineRequires],
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
