import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { actionArgs } from '../src/action/action.js';
import { fixtureBundle, REFERENCE, ROOT, tempDir } from './helpers.js';

/** What action.yml runs: the committed bundle (a JavaScript action runs what is committed). */
const ACTION = join(ROOT, 'src', 'action', 'bundle', 'action.js');

t.test('action inputs become mcp-pd-check arguments', async (t) => {
  t.same(
    actionArgs({ INPUT_COMMAND: 'node "my server.js"', 'INPUT_FAIL-ON': 'warning', GITHUB_STEP_SUMMARY: '/s.md' }),
    ['--format', 'github', '--fail-on', 'warning', '--report', 'markdown=/s.md', '--', 'node', 'my server.js'],
  );
  t.same(actionArgs({ INPUT_URL: 'http://127.0.0.1:3000/mcp', INPUT_ARGS: '--only pd-', INPUT_SARIF: 'out.sarif' }), [
    '--format',
    'github',
    '--fail-on',
    'error',
    '--report',
    'sarif=out.sarif',
    '--only',
    'pd-',
    '--url',
    'http://127.0.0.1:3000/mcp',
  ]);
  t.same(actionArgs({ INPUT_LINT: 'tool_descriptions cards', INPUT_BASELINE: 'package.json' }), [
    'lint',
    '--format',
    'github',
    '--fail-on',
    'error',
    '--baseline',
    'package.json',
    'tool_descriptions',
    'cards',
  ]);
  // Plugins, one --plugin each, for a lint as for a live run.
  t.same(actionArgs({ INPUT_LINT: 'tool_descriptions', INPUT_PLUGINS: './checks/acme.js\nmcp-pd-check-plugin-acme' }), [
    'lint',
    '--format',
    'github',
    '--fail-on',
    'error',
    '--plugin',
    './checks/acme.js',
    '--plugin',
    'mcp-pd-check-plugin-acme',
    'tool_descriptions',
  ]);
  // The first run: the baseline is not there yet — every finding gates, and a notice says how to write it.
  t.same(actionArgs({ INPUT_LINT: 'tool_descriptions', INPUT_BASELINE: 'no-such-baseline.json' }), [
    'lint',
    '--format',
    'github',
    '--fail-on',
    'error',
    'tool_descriptions',
  ]);
  t.same(
    actionArgs({ INPUT_CONFIG: 'pd/mcp-pd-check.config.json' }),
    ['--format', 'github', '--fail-on', 'error', '--config', 'pd/mcp-pd-check.config.json'],
    'a config names the server itself',
  );
  t.throws(() => actionArgs({}), /give the action 'command'/);
  // lock: the server against its committed lock file; the diff in the log and the step summary.
  t.same(
    actionArgs({
      INPUT_LOCK: 'mcp-tools.lock.json',
      INPUT_COMMAND: 'node dist/server.js',
      GITHUB_STEP_SUMMARY: '/s.md',
    }),
    [
      'lock',
      '--check',
      'mcp-tools.lock.json',
      '--format',
      'github',
      '--report',
      'markdown=/s.md',
      '--',
      'node',
      'dist/server.js',
    ],
  );
  t.throws(() => actionArgs({ INPUT_LOCK: 'mcp-tools.lock.json' }), /lock needs the server/);
});

t.test("the action's lock input fails the step on drift and puts the Markdown diff in the step summary", async (t) => {
  const dir = tempDir();
  const lock = join(dir, 'mcp-tools.lock.json');
  const summary = join(dir, 'summary.md');
  const server = (change: string) => `--protocol 2025-11-25 --env SURFACE_CHANGE=${change}`;
  const bundle = fixtureBundle('surface-changes');
  const run = (change: string, extra: Record<string, string> = {}) =>
    spawnSync(process.execPath, [ACTION], {
      cwd: ROOT,
      encoding: 'utf8',
      env: {
        ...process.env,
        GITHUB_STEP_SUMMARY: summary,
        INPUT_LOCK: lock,
        INPUT_COMMAND: `node ${bundle}`,
        INPUT_ARGS: server(change),
        ...extra,
      },
    });
  // The lock written as a user would, then checked by the action.
  const write = spawnSync(
    process.execPath,
    [join(ROOT, 'dist', 'cli', 'cli.js'), 'lock', '--out', lock, ...server('').split(' '), '--', 'node', bundle],
    { encoding: 'utf8' },
  );
  t.equal(write.status, 0, write.stderr);
  t.equal(run('').status, 0, 'as locked: the step passes');
  const drift = run('removed');
  t.equal(drift.status, 1, 'drift fails the step');
  t.match(drift.stdout, /^::error file=[^\n]*mcp-tools\.lock\.json,line=\d+,title=[^:]*::tool 'delete_note' removed/m);
  t.match(readFileSync(summary, 'utf8'), /\| - \| tool <code>delete\\_note<\/code> removed/);
});

t.test("the action's script runs the checker, writes the step summary and passes on the exit code", async (t) => {
  const dir = tempDir();
  const summary = join(dir, 'summary.md');
  const sarif = join(dir, 'out.sarif');
  const env = { ...process.env, GITHUB_STEP_SUMMARY: summary, INPUT_SARIF: sarif, INPUT_ARGS: '--sessions 3' };
  const good = spawnSync(process.execPath, [ACTION], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...env, INPUT_COMMAND: `node ${REFERENCE}` },
  });
  t.equal(good.status, 0, good.stderr);
  t.match(good.stdout, /^::notice title=mcp-pd-check::\d+ passed, 0 failed/m);
  t.match(readFileSync(summary, 'utf8'), /## mcp-pd-check: ✅/);
  t.ok(existsSync(sarif));
  const bad = spawnSync(process.execPath, [ACTION], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...env, INPUT_COMMAND: `node ${fixtureBundle('pd-description-required--wrong-resource-uri')}` },
  });
  t.equal(bad.status, 1);
  t.match(bad.stdout, /^::error title=pd-description-required/m);
  const none = spawnSync(process.execPath, [ACTION], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH } });
  t.equal(none.status, 2);
  t.match(none.stdout, /::error title=mcp-pd-check::give the action/);
  // A first run with the baseline named but not written yet: a notice, and the run as without one.
  const first = spawnSync(process.execPath, [ACTION], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...env, INPUT_COMMAND: `node ${REFERENCE}`, INPUT_BASELINE: 'mcp-pd-check.baseline.json' },
  });
  t.equal(first.status, 0, first.stderr);
  t.match(
    first.stdout,
    /^::notice title=mcp-pd-check::the baseline mcp-pd-check\.baseline\.json does not exist yet, so this run gates every finding; to accept today's findings, run mcp-pd-check --update-baseline/m,
  );
  // A run that cannot start: an error annotation, and the step summary says it.
  const unreachable = spawnSync(process.execPath, [ACTION], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...env, INPUT_URL: 'http://127.0.0.1:9/mcp', INPUT_ARGS: '--timeout 2000' },
  });
  t.equal(unreachable.status, 3);
  t.match(
    unreachable.stdout,
    /^::error title=mcp-pd-check::mcp-pd-check could not reach the server: cannot check 'http:\/\/127\.0\.0\.1:9\/mcp'/m,
  );
  t.match(
    readFileSync(summary, 'utf8'),
    /## mcp-pd-check: mcp-pd-check could not reach the server \(exit 3\)\n\ncannot check/,
  );
  const usage = spawnSync(process.execPath, [ACTION], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...env, INPUT_COMMAND: `node ${REFERENCE}`, INPUT_ARGS: '--sessions 1' },
  });
  t.equal(usage.status, 2);
  t.match(usage.stdout, /^::error title=mcp-pd-check::mcp-pd-check could not run \(a usage error\): /m);
});

t.test(
  'the committed action bundle is what the sources build (run `npm run bundle-action` after a change)',
  async (t) => {
    const out = tempDir();
    const built = spawnSync(process.execPath, [join(ROOT, 'src', 'build', 'bundle-action.mjs'), out], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    t.equal(built.status, 0, built.stderr);
    for (const file of ['action.js', 'cli.js']) {
      const same = readFileSync(join(out, file)).equals(readFileSync(join(ROOT, 'src', 'action', 'bundle', file)));
      t.ok(same, `src/action/bundle/${file} matches a fresh build`);
    }
    const yml = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    t.match(
      yml,
      /using: node24\n\s+main: src\/action\/bundle\/action\.js/,
      'action.yml runs the bundle with node24 (node20 is past its end of life on GitHub Actions): no npm ci, no build',
    );
  },
);
