import t from 'tap';
import { PAGES } from './docs/pages.js';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanStatusOverStdio, ROOT, tempDir } from './helpers.js';
import type { CheckReport } from '../src/generated/report.js';

const npm = (args: string[], cwd: string) =>
  spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    timeout: 300_000,
  });

t.test('the packed tarball works from an empty folder', async (t) => {
  const packDir = tempDir();
  // Already built by `npm test`; --ignore-scripts skips prepack's second build.
  const pack = npm(['pack', '--ignore-scripts', '--pack-destination', packDir], ROOT);
  t.equal(pack.status, 0, pack.stderr);
  const tarball = readdirSync(packDir).find((f) => f.endsWith('.tgz'));
  t.ok(tarball, 'npm pack wrote a tarball');
  if (!tarball) return;

  const app = tempDir();
  t.equal(npm(['init', '-y'], app).status, 0);
  const install = npm(['install', join(packDir, tarball)], app);
  t.equal(install.status, 0, install.stderr);

  const version = spawnSync('npx', ['--no-install', 'mcp-pd-check', '--version'], { cwd: app, encoding: 'utf8' });
  t.equal(version.status, 0, version.stderr);
  t.match(version.stdout.trim(), /^\d+\.\d+\.\d+/);

  const run = spawnSync(
    'npx',
    ['--no-install', 'mcp-pd-check', '--format', 'json', '--', 'npx', '--no-install', 'mcp-pd-reference-server'],
    { cwd: app, encoding: 'utf8', timeout: 120_000 },
  );
  t.equal(run.status, 0, run.stderr);
  const report = JSON.parse(run.stdout) as { results: Array<{ id: string; status: string; era?: string }> };
  for (const r of report.results) t.equal(r.status, cleanStatusOverStdio(r.id, r.era), r.id);

  const explain = spawnSync('npx', ['--no-install', 'mcp-pd-check', 'explain', 'pd-unknown-tool'], {
    cwd: app,
    encoding: 'utf8',
  });
  t.equal(explain.status, 0, explain.stderr);
  t.match(explain.stdout, /\nHow to fix\n {2}Answer per name/, 'the check docs ship in the package');
  // Every link the installed package gives resolves in it: the doc of the check, the design it cites, its licence.
  const doc = /\n {2}doc: +(file:\S+)/.exec(explain.stdout)?.[1];
  t.ok(
    doc && existsSync(fileURLToPath(doc)) && fileURLToPath(doc).startsWith(join(app, 'node_modules', 'mcp-pd-check')),
    `explain's doc link is a file of the installed package: ${doc}`,
  );
  for (const file of [
    'LICENSE',
    join('docs', 'DESIGN.md'),
    join('docs', 'ci-sweep.md'),
    join('docs', 'workflows', 'sweep.yml'),
    ...PAGES,
  ])
    t.ok(existsSync(join(app, 'node_modules', 'mcp-pd-check', file)), `${file} ships`);
  const plan = spawnSync('npx', ['--no-install', 'mcp-pd-check', '--explain-plan', '--', 'node', 'x.js'], {
    cwd: app,
    encoding: 'utf8',
  });
  const cited = /(docs\/DESIGN\.md)/.exec(plan.stdout)?.[1];
  t.ok(
    cited && existsSync(join(app, 'node_modules', 'mcp-pd-check', cited)),
    `--explain-plan cites ${cited}, which ships`,
  );

  const lint = spawnSync(
    'npx',
    ['--no-install', 'mcp-pd-check', 'lint', 'node_modules/mcp-pd-check/reference-server'],
    { cwd: app, encoding: 'utf8' },
  );
  t.equal(lint.status, 0, `the shipped reference descriptions and cards lint clean: ${lint.stdout.slice(-400)}`);

  // A user's first run: an ordinary server from npm (here the one in this checkout's node_modules:
  // no network in tests), a verdict with the token figures first, exit 1.
  mkdirSync(join(app, 'sandbox'));
  const first = spawnSync(
    'npx',
    [
      '--no-install',
      'mcp-pd-check',
      '--',
      'node',
      join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js'),
      './sandbox',
    ],
    { cwd: app, encoding: 'utf8', timeout: 120_000 },
  );
  t.equal(first.status, 1, first.stderr);
  t.match(
    first.stdout.split('\n')[1],
    /; protocol 2026-07-28 not checked: the server does not speak it/,
    "the era it does not speak is said on the server's line",
  );
  t.match(
    first.stdout.split('\n').slice(2, 5).join('\n'),
    /^\nPROGRESSIVE DISCLOSURE: NO\n {2}No: .*14 tools cost [\d,]+ tokens in every prompt; listed minimally, as serve would list them, ≈ [\d,]+\./,
    'the verdict and the token figures come first',
  );
  t.same(readdirSync(join(app, 'sandbox')), [], 'nothing was written to the sandbox');

  // Adopting: init from the installed package, the lint of what it wrote has no error, and the
  // config it wrote checks the server behind the installed package's own serve: yes.
  const init = spawnSync(
    'npx',
    [
      '--no-install',
      'mcp-pd-check',
      'init',
      '--out',
      'pd',
      '--',
      'node',
      join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js'),
      './sandbox',
    ],
    { cwd: app, encoding: 'utf8', timeout: 120_000 },
  );
  t.equal(init.status, 0, init.stderr);
  t.match(init.stdout, /^Wrote 32 files to pd for 14 tools\./);
  // The config's $schema is the installed package's own file, relative to the config: an editor finds it offline.
  const configSchema = (
    JSON.parse(readFileSync(join(app, 'pd', 'mcp-pd-check.config.json'), 'utf8')) as { $schema: string }
  ).$schema;
  t.equal(configSchema, '../node_modules/mcp-pd-check/schemas/config.schema.json');
  t.ok(existsSync(join(app, 'pd', configSchema)), 'and it is there');
  const written = JSON.parse(readFileSync(join(app, 'pd', 'tool_descriptions', 'write_file.json'), 'utf8')) as {
    examples: unknown[];
    usage_guidance: { common_patterns: string[] };
  };
  t.same(written.examples, [], "no example is made up (the server's descriptions give none)");
  t.match(
    written.usage_guidance.common_patterns.join('\n'),
    /REVIEW: add an example call of write_file/,
    'one is asked for',
  );
  const lintInit = spawnSync('npx', ['--no-install', 'mcp-pd-check', 'lint', 'pd'], { cwd: app, encoding: 'utf8' });
  t.equal(lintInit.status, 0, lintInit.stdout.slice(-600));
  const served = spawnSync(
    'npx',
    ['--no-install', 'mcp-pd-check', '--config', 'pd/mcp-pd-check.config.json', '--only', 'pd-', '--format', 'json'],
    { cwd: app, encoding: 'utf8', timeout: 120_000 },
  );
  t.equal(served.status, 0, served.stderr);
  t.equal(
    (JSON.parse(served.stdout) as CheckReport).verdict?.implements,
    'yes',
    'the config checks the server behind the installed serve: yes',
  );

  // The library: importing it does nothing; the README's node:test example passes as written.
  const quiet = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const before = ['exit', 'SIGINT', 'SIGTERM'].map((e) => process.listenerCount(e)); await import('mcp-pd-check'); await import('mcp-pd-check/reports'); console.log(JSON.stringify({ before, after: ['exit', 'SIGINT', 'SIGTERM'].map((e) => process.listenerCount(e)) }));",
    ],
    { cwd: app, encoding: 'utf8' },
  );
  t.equal(quiet.status, 0, quiet.stderr);
  const counts = JSON.parse(quiet.stdout.trim()) as { before: number[]; after: number[] };
  t.same(counts.after, counts.before, 'importing the library installs no process hook');
  t.ok(existsSync(join(app, 'node_modules', 'mcp-pd-check', 'dist', 'src', 'index.d.ts')), 'type declarations ship');

  const example = readmeExample('test/mcp-pd.test.mjs');
  mkdirSync(join(app, 'test'));
  writeFileSync(join(app, 'test', 'mcp-pd.test.mjs'), example);
  const nodeTest = spawnSync(process.execPath, ['--test', 'test/'], { cwd: app, encoding: 'utf8', timeout: 120_000 });
  t.equal(
    nodeTest.status,
    0,
    `the README's node:test example passes: ${nodeTest.stdout.slice(-1500)}${nodeTest.stderr.slice(-500)}`,
  );
  t.match(nodeTest.stdout, /# pass 1/);
});

/** A fenced code block of the README or a guide of it, by the file name written after its language. */
function readmeExample(name: string): string {
  const readme = PAGES.map((page) => readFileSync(join(ROOT, page), 'utf8')).join('\n');
  const block = new RegExp(`\`\`\`\\w+ ${name.replace(/[.]/g, '\\.')}\n([\\s\\S]*?)\n\`\`\``).exec(readme)?.[1];
  if (!block) throw new Error(`the README has no code block named ${name}`);
  return `${block}\n`;
}
