import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from './helpers.js';

const npm = (args: string[], cwd: string) => spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', timeout: 300_000 });

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

  const run = spawnSync('npx', ['--no-install', 'mcp-pd-check', '--format', 'json', '--', 'npx', '--no-install', 'mcp-pd-reference-server'], { cwd: app, encoding: 'utf8', timeout: 120_000 });
  t.equal(run.status, 0, run.stderr);
  const report = JSON.parse(run.stdout) as { results: Array<{ id: string; status: string }> };
  for (const r of report.results) t.equal(r.status, r.id === 'toolcard-well-known' ? 'skip' : 'pass', r.id);

  const explain = spawnSync('npx', ['--no-install', 'mcp-pd-check', 'explain', 'pd-unknown-tool'], { cwd: app, encoding: 'utf8' });
  t.equal(explain.status, 0, explain.stderr);
  t.match(explain.stdout, /\nHow to fix\n  Answer per name/, 'the check docs ship in the package');

  const lint = spawnSync('npx', ['--no-install', 'mcp-pd-check', 'lint', 'node_modules/mcp-pd-check/reference-server'], { cwd: app, encoding: 'utf8' });
  t.equal(lint.status, 0, `the shipped reference descriptions and cards lint clean: ${lint.stdout.slice(-400)}`);
});
