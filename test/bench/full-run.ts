// npm run bench (part 1): wall time of check runs against the bundled reference server, default 8
// sessions. Prints figures and asserts nothing: these machines are shared and noisy, so targets are
// read from the median, never enforced in tests.
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { LIVE_CHECKS, PD_CRITERIA } from '../../checks/index.js';
import { checkTarget } from '../../src/live.js';
import { StdioTarget } from '../../src/target/target.js';
import { CLI, REFERENCE, ROOT, median } from '../helpers.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const TARGET_MS = 2000;

const fmt = (v: number[]) => `median ${median(v).toFixed(0)} ms   min ${Math.min(...v).toFixed(0)}   max ${Math.max(...v).toFixed(0)}`;

console.log(`machine: ${cpus().length} cores, node ${process.version}; ${RUNS} runs each; server: node dist/reference-server/bundle.js (stdio)`);

// 1. As a user runs it: a new checker process, every check.
const wall: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  const run = spawnSync(process.execPath, [CLI, '--format', 'json', '--', 'node', REFERENCE], { cwd: ROOT, encoding: 'utf8' });
  wall.push(performance.now() - started);
  if (run.status !== 0) {
    process.stderr.write(`run ${i + 1} exited ${run.status}: ${run.stderr}\n`);
    process.exit(1);
  }
}
console.log(`  mcp-pd-check, all ${LIVE_CHECKS.length} checks (whole process)   ${fmt(wall)}`);

// 2. The nine progressive-disclosure criteria alone, through the core API (checker already loaded).
const nine: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  const report = await checkTarget(new StdioTarget({ command: 'node', args: [REFERENCE] }, { timeoutMs: 5000 }), { timeoutMs: 5000, sessions: 8, safeCalls: false, require: [] }, { checks: PD_CRITERIA });
  nine.push(performance.now() - started);
  if (report.summary.failed || report.summary.errors) {
    process.stderr.write(`the nine criteria did not pass: ${JSON.stringify(report.summary)}\n`);
    process.exit(1);
  }
}
console.log(`  the nine criteria (core API, 8 sessions)          ${fmt(nine)}   target < ${TARGET_MS} ms: ${median(nine) < TARGET_MS ? 'met' : 'NOT met'}`);

// 3. Real servers from npm (devDependencies, from node_modules), as a user's first run meets them.
const MODULES = `${ROOT}/node_modules/@modelcontextprotocol`;
const sandbox = spawnSync('mktemp', ['-d'], { encoding: 'utf8' }).stdout.trim();
for (const [name, args] of [
  ['server-filesystem', [`${MODULES}/server-filesystem/dist/index.js`, sandbox]],
  ['server-memory', [`${MODULES}/server-memory/dist/index.js`]],
  ['server-everything', [`${MODULES}/server-everything/dist/index.js`, 'stdio']],
] as const) {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const run = spawnSync(process.execPath, [CLI, '--format', 'json', '--env', `MEMORY_FILE_PATH=${sandbox}/memory.jsonl`, '--', 'node', ...args], { cwd: ROOT, encoding: 'utf8' });
    times.push(performance.now() - started);
    if (run.status !== 1) {
      process.stderr.write(`${name}: exit ${run.status} (a verdict of 'no' exits 1): ${run.stderr}\n`);
      process.exit(1);
    }
  }
  console.log(`  @modelcontextprotocol/${name} (stdio, whole process)${' '.repeat(Math.max(1, 22 - name.length))}${fmt(times)}`);
}
