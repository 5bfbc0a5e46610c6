// npm run bench: wall time of a full check run against the bundled reference server, as a user
// runs it (a new checker process each time, default 8 sessions). Prints figures; asserts nothing:
// these machines are shared and noisy, so targets are read from the median, not enforced in tests.
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { CLI, REFERENCE, ROOT } from '../helpers.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const TARGET_MS = 2000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const wall: number[] = [];
const inner: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  const run = spawnSync(process.execPath, [CLI, '--format', 'json', '--', 'node', REFERENCE], { cwd: ROOT, encoding: 'utf8' });
  wall.push(performance.now() - started);
  if (run.status !== 0) {
    process.stderr.write(`run ${i + 1} exited ${run.status}: ${run.stderr}\n`);
    process.exit(1);
  }
  inner.push((JSON.parse(run.stdout) as { durationMs: number }).durationMs);
}

const m = median(wall);
console.log(`full run against the reference server (${join('dist', 'reference-server', 'bundle.js')}), 9 checks, 8 sessions`);
console.log(`machine: ${cpus().length} cores, node ${process.version}; ${RUNS} runs`);
console.log(`  process wall time  median ${m.toFixed(0)} ms   min ${Math.min(...wall).toFixed(0)}   max ${Math.max(...wall).toFixed(0)}`);
console.log(`  report durationMs  median ${median(inner).toFixed(0)} ms (without the checker's own start-up)`);
console.log(`  target < ${TARGET_MS} ms: ${m < TARGET_MS ? 'met' : 'NOT met'}`);
