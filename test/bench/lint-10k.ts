// npm run bench (part 2): lint a generated folder of 10,000 tool description files through the
// CLI, as a user would. Prints the median; the target is under 5 s on this 2-core machine.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, median } from '../helpers.js';

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TARGET_MS = 5000;


const root = mkdtempSync(join(tmpdir(), 'mcp-pd-lint-bench-'));
const dir = join(root, 'tool_descriptions');
mkdirSync(dir);
for (let i = 0; i < FILES; i++) {
  const name = `tool_${i}`;
  // Every tool has its own schema, as in a real catalogue (no cache can help).
  const extra = i;
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({
    name,
    description: `Tool number ${i}: does one thing of kind ${extra} and returns the result as JSON.`,
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string', pattern: '^[a-z]+-\\d+$' }, limit: { type: 'integer', minimum: 1, maximum: 100 + extra } },
      required: ['id'],
      additionalProperties: false,
    },
    examples: [{ description: 'Basic', input: { id: `item-${i}`, limit: 10 } }],
    usage_guidance: { common_patterns: ['Call it with an id.'] },
    error_guidance: { common_errors: [{ error: 'NOT_FOUND', cause: 'Unknown id.', solution: 'List ids first.' }] },
  }, null, 2));
}

const times: number[] = [];
let inner = 0;
for (let r = 0; r < RUNS; r++) {
  const started = performance.now();
  const run = spawnSync(process.execPath, [CLI, 'lint', '--format', 'json', dir], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  times.push(performance.now() - started);
  if (run.status !== 0) {
    process.stderr.write(`lint exited ${run.status}: ${run.stderr || run.stdout.slice(0, 500)}\n`);
    process.exit(1);
  }
  inner = (JSON.parse(run.stdout) as { durationMs: number }).durationMs;
}
rmSync(root, { recursive: true, force: true });
const m = median(times);
console.log(`lint of ${FILES} generated tool description files, ${RUNS} runs`);
console.log(`  process wall time  median ${m.toFixed(0)} ms   min ${Math.min(...times).toFixed(0)}   max ${Math.max(...times).toFixed(0)}   (last run's report: ${inner} ms)`);
console.log(`  target < ${TARGET_MS} ms: ${m < TARGET_MS ? 'met' : 'NOT met'}`);
