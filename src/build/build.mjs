// npm run build: each step runs only when what it reads changed since the last build (a hash of
// the files' contents, kept in dist/.build-state.json), so `npm start`, `npm test` and `npm run
// bench` on a built tree start in well under a second. TypeScript compiles incrementally
// (dist/.tsbuildinfo): a change of one file recompiles what it touches. What runs is said on
// stderr, once per step; nothing is said when everything is up to date.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STATE = join(root, 'dist', '.build-state.json');
// Outputs of the build and of npm run bundle-action, not its inputs.
const SKIP = new Set(['node_modules', 'dist', '.git', 'generated', join('src', 'action', 'bundle')]);

/** A hash of every file under these paths (folders walked, sorted): their names and contents. */
function fingerprint(paths) {
  const hash = createHash('sha256');
  const add = (path) => {
    if (!existsSync(path)) return;
    let entries;
    try {
      entries = readdirSync(path, { withFileTypes: true });
    } catch {
      hash
        .update(`${relative(root, path)}\0`)
        .update(readFileSync(path))
        .update('\0');
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (SKIP.has(e.name) || SKIP.has(relative(root, join(path, e.name)))) continue;
      add(join(path, e.name));
    }
  };
  for (const p of paths) add(join(root, p));
  return hash.digest('hex');
}

function readState() {
  try {
    return JSON.parse(readFileSync(STATE, 'utf8'));
  } catch {
    return {};
  }
}

function step(what, command, args) {
  process.stderr.write(`build: ${what}\n`);
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) {
    process.stderr.write(
      `build: ${what} failed (exit ${run.status ?? run.signal}); fix the error above and run npm run build again\n`,
    );
    process.exit(run.status || 1);
  }
}

const state = readState();
const node = process.execPath;
const started = performance.now();
let ran = false;

// 1. Types and validators from the shipped schemas (into src/generated, which is not committed).
const schemas = fingerprint(['schemas']);
if (state.schemas !== schemas || !existsSync(join(root, 'src', 'generated', 'report.ts'))) {
  step('generating types from schemas/*.json', node, [join(root, 'schemas', 'generate-types.mjs')]);
  step('generating validators from schemas/*.json', node, [join(root, 'schemas', 'generate-validators.mjs')]);
  ran = true;
}

// 2. TypeScript, incrementally; 3. the bundles made from its output.
const SOURCES = [
  'src',
  'checks',
  'reports',
  'reference-server',
  'fixtures',
  'test',
  'schemas',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];
const sources = fingerprint(SOURCES);
const bundles = ['dist/cli/cli.js', 'dist/reference-server/bundle.js'].every((f) => existsSync(join(root, f)));
if (ran || state.sources !== sources || !bundles) {
  step(
    state.sources
      ? 'compiling what changed (tsc --incremental)'
      : 'compiling TypeScript (the first build compiles every file and takes longest; later ones only what changed)',
    node,
    [
      join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      'tsconfig.json',
      '--incremental',
      '--tsBuildInfoFile',
      join('dist', '.tsbuildinfo'),
    ],
  );
  step('bundling the reference server and the fixture servers', node, [join(root, 'reference-server', 'bundle.mjs')]);
  step('bundling the CLI', node, [join(root, 'src', 'build', 'bundle-cli.mjs')]);
  ran = true;
}

if (ran) {
  mkdirSync(dirname(STATE), { recursive: true });
  // The fingerprints taken before the steps: a file edited while they ran is built next time.
  writeFileSync(STATE, `${JSON.stringify({ schemas, sources })}\n`);
  process.stderr.write(`build: done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
