// Build step: bundle the compiled reference server (and the fixture servers) into one file each. A session over stdio
// is a new
// process, and loading the SDK's several hundred module files dominated start-up (~0.40 s CPU);
// as one bundle it starts in ~0.19 s, which halves the cost of a full check run.
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  // CommonJS dependencies (ajv) call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
};
// The HTTP stack is a chunk of its own, loaded only with --http (reference-server/run.ts): a stdio
// start no longer parses it (0.33 -> 0.24 s CPU per session, measured). Chunks are named by their
// hash, so those of an earlier build are removed first.
const serverDir = join(root, 'dist', 'reference-server');
for (const f of readdirSync(serverDir)) if (/^bundle-.*\.js$/.test(f)) rmSync(join(serverDir, f));
await build({
  ...common,
  entryPoints: [join(root, 'dist', 'reference-server', 'main.js')],
  outdir: join(root, 'dist', 'reference-server'),
  entryNames: 'bundle',
  chunkNames: 'bundle-[name]-[hash]',
  splitting: true,
});
// The negative fixture servers start as often as the reference server in tests: bundle them too.
const fixtures = join(root, 'dist', 'fixtures', 'servers');
rmSync(join(fixtures, 'chunks'), { recursive: true, force: true });
const entries = readdirSync(fixtures).filter((f) => f.endsWith('.js') && f !== 'serve.js' && !f.endsWith('.bundle.js'));
const built = await build({
  ...common,
  entryPoints: entries.map((f) => join(fixtures, f)),
  outdir: fixtures,
  entryNames: '[name].bundle',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  metafile: true,
});
// A module that other entries import too is moved into a shared chunk, where its import.meta.url is
// the chunk's: serveIfMain(import.meta.url) would never serve. A fixture must not import another.
const servers = new Set(
  entries
    .filter((f) => readFileSync(join(fixtures, f), 'utf8').includes('serveIfMain(import.meta.url'))
    .map((f) => join('dist', 'fixtures', 'servers', f)),
);
for (const [output, { entryPoint, inputs }] of Object.entries(built.metafile.outputs)) {
  if (entryPoint && servers.has(entryPoint) && !(entryPoint in inputs))
    throw new Error(
      `${entryPoint} is imported by another fixture, so its bundle (${output}) does not contain it: move what they share into a module of its own`,
    );
}
