// `npm run test:busy`: the whole test suite with two CPU-bound busy loops beside it, as on a
// shared CI runner or a laptop building something else. It must pass all the same; it prints how
// long it took (and the busy loops' share of the CPU), and exits with the suite's code.
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';

const LOOPS = 2;
const loops = Array.from({ length: LOOPS }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopLoops = () => {
  for (const loop of loops) loop.kill('SIGKILL');
};
process.once('SIGINT', () => {
  stopLoops();
  process.exit(130);
});
process.once('SIGTERM', () => {
  stopLoops();
  process.exit(143);
});

const started = performance.now();
process.stderr.write(`test:busy: ${LOOPS} busy loops on a ${cpus().length}-core machine, then npm test\n`);
// The stability test runs its servers ten times here (twice in a plain npm test), beside these loops (it adds none of
// its own).
const suite = spawn('npm', ['test'], {
  stdio: 'inherit',
  env: { ...process.env, MCP_PD_BUSY: '1', MCP_PD_STABILITY_RUNS: process.env.MCP_PD_STABILITY_RUNS ?? '10' },
});
suite.on('exit', (code, signal) => {
  stopLoops();
  const seconds = Math.round((performance.now() - started) / 1000);
  process.stderr.write(
    `test:busy: npm test ${code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`} in ${seconds} s beside ${LOOPS} busy loops\n`,
  );
  process.exit(code ?? 1);
});
