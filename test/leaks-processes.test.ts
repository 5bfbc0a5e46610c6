// Nothing outlives a run: helpers a server started that ignore SIGTERM and drop the run marker die
// with their session, and SIGTERM ends a lint promptly, whatever it is doing.
import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, tempDir } from './helpers.js';
import { assertVerdict, BOUNDS, HOSTILE, runBounded, survivors } from './support/hostile.js';

t.test('helpers that ignore SIGTERM and drop the run marker die with their session', async (t) => {
  const pids = join(tempDir(), 'helpers.txt');
  const run = await runBounded([
    '--format',
    'json',
    ...BOUNDS,
    '--env',
    `HELPER_PIDS=${pids}`,
    '--',
    'node',
    join(HOSTILE, 'sigterm-proof-helpers.js'),
  ]);
  assertVerdict(t, run, 1);
  const started = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
  t.ok(started.length >= 2, `the helpers ran (${started.length} started, two per session)`);
  // A killed process may take a moment to be reaped by init.
  let alive = started;
  for (let i = 0; i < 20 && alive.length; i++) {
    alive = started.filter(
      (pid) => existsSync(`/proc/${pid}`) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8')),
    );
    if (alive.length) await new Promise((done) => setTimeout(done, 100));
  }
  t.same(alive, [], 'no helper is alive after the run');
  t.same(survivors('sigterm-proof-helpers', run), []);
});

t.test('lint: SIGTERM ends a lint promptly, whatever it is doing', async (t) => {
  const dir = join(tempDir(), 'tool_descriptions');
  mkdirSync(dir);
  for (let i = 0; i < 4000; i++)
    writeFileSync(
      join(dir, `tool_${i}.json`),
      JSON.stringify({
        name: `tool_${i}`,
        description: 'A tool.',
        inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
        examples: [{ description: 'x', input: { a: 'b' } }],
      }),
    );
  const child = spawn(process.execPath, [CLI, 'lint', dir], { cwd: ROOT, stdio: 'ignore' });
  await new Promise((done) => setTimeout(done, 300));
  const sent = performance.now();
  child.kill('SIGTERM');
  const signal = await new Promise<NodeJS.Signals | null>((done) => {
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      done(null);
    }, 120_000);
    child.on('exit', (code, sig) => {
      clearTimeout(guard);
      done(code === null ? sig : null);
    });
  });
  t.ok(
    signal === 'SIGTERM' || child.exitCode !== null,
    `the lint ended on SIGTERM (after ${Math.round(performance.now() - sent)} ms; a hang guard, not a timing test)`,
  );
});
