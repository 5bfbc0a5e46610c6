// npm run soak: 64 parallel Streamable HTTP sessions × 200 operations (description fetches and tool
// calls, in a random order) against the reference server on 127.0.0.1. Each session tracks what it
// fetched; a call that runs although this session never fetched the tool is a cross-session leak,
// a refused call after a fetch or any failed request is an error. Prints figures; exits 1 on any
// leak or error. `--server <bundle.js>` soaks another server (a leaky fixture proves leaks are seen).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { HttpWire } from '../../src/transport/http.js';
import { McpSession } from '../../src/transport/session.js';
import type { Exchange, JsonObject } from '../../src/transport/types.js';
import { REFERENCE } from '../helpers.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const SESSIONS = Number(arg('--sessions', '64'));
const OPS = Number(arg('--ops', '200'));
const SERVER = arg('--server', REFERENCE);
const SEED = Number(arg('--seed', '1'));
/** A bounded run: the soak stops itself, whatever the server does. */
const GUARD_MS = 180_000;
const BASE = 'resource:///tool_descriptions';
const TOOLS = ['list_notes', 'get_note', 'search_notes', 'create_note', 'update_note', 'delete_note'];

/** A small deterministic generator, so that a run can be repeated exactly. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function startServer(): Promise<{ url: string; pid: number; stop(): void }> {
  // No fetch limit: the soak measures throughput; the limiter is tested in reference-hardening.
  const child = spawn(process.execPath, [SERVER, '--http', '0', '--fetch-limit', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1], pid: child.pid!, stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening: ${out}`)));
  });
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

const isRefusal = (ex: Exchange) => JSON.stringify(ex.response ?? '').includes('TOOL_DESCRIPTION_REQUIRED');

interface Tally {
  latencies: number[];
  leaks: string[];
  errors: string[];
}

async function soakSession(url: string, index: number, tally: Tally): Promise<void> {
  const session = new McpSession(new HttpWire(new URL(url), {}), { label: `s${index}`, timeoutMs: 10_000 });
  const next = random(SEED * 1000 + index);
  const granted = new Set<string>();
  const examples = new Map<string, JsonObject>();
  try {
    await session.initialize();
    for (let op = 0; op < OPS; op++) {
      const tool = TOOLS[Math.floor(next() * TOOLS.length)];
      const fetch = next() < 0.4;
      const started = performance.now();
      const ex = fetch
        ? await session.readResource(`${BASE}?tools=${tool}`)
        : await session.callTool(tool, examples.get(tool) ?? {});
      tally.latencies.push(performance.now() - started);
      if (!ex.response || ex.response.error) {
        tally.errors.push(`s${index} ${ex.method} ${tool}: ${ex.note ?? JSON.stringify(ex.response?.error)}`);
        continue;
      }
      if (fetch) {
        granted.add(tool);
        const text = (ex.response.result as { contents?: Array<{ text?: string }> }).contents?.[0]?.text;
        const input = (JSON.parse(text ?? '{}')[tool] as { examples?: Array<{ input: JsonObject }> } | undefined)
          ?.examples?.[0]?.input;
        if (input) examples.set(tool, input);
      } else if (!granted.has(tool) && !isRefusal(ex)) {
        tally.leaks.push(`s${index}: '${tool}' ran although this session never fetched it`);
      } else if (granted.has(tool) && isRefusal(ex)) {
        tally.errors.push(`s${index}: '${tool}' was refused although this session fetched it`);
      }
    }
  } catch (err) {
    tally.errors.push(`s${index}: ${(err as Error).message}`);
  } finally {
    await session.close();
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const server = await startServer();
const guard = setTimeout(() => {
  process.stderr.write(`soak: stopped after ${GUARD_MS / 1000} s\n`);
  server.stop();
  process.exit(1);
}, GUARD_MS);
try {
  const rssBefore = rssMb(server.pid);
  const tally: Tally = { latencies: [], leaks: [], errors: [] };
  const started = performance.now();
  await Promise.all(Array.from({ length: SESSIONS }, (_, i) => soakSession(server.url, i, tally)));
  const seconds = (performance.now() - started) / 1000;
  const sorted = [...tally.latencies].sort((a, b) => a - b);
  console.log(
    `machine: ${cpus().length} cores, node ${process.version}; server: ${SERVER.replace(/^.*\/dist\//, 'dist/')} --http (127.0.0.1), --fetch-limit 0; seed ${SEED}`,
  );
  console.log(`  sessions in parallel     ${SESSIONS}`);
  console.log(`  operations               ${tally.latencies.length} (${OPS} per session; 40 % fetches, 60 % calls)`);
  console.log(
    `  throughput               ${Math.round(tally.latencies.length / seconds)} operations/s over ${seconds.toFixed(1)} s`,
  );
  console.log(
    `  latency                  p50 ${percentile(sorted, 50).toFixed(1)} ms   p99 ${percentile(sorted, 99).toFixed(1)} ms   max ${sorted[sorted.length - 1]?.toFixed(1)} ms`,
  );
  console.log(`  server memory (RSS)      ${rssBefore} MB before, ${rssMb(server.pid)} MB after`);
  console.log(`  cross-session leaks      ${tally.leaks.length}`);
  console.log(`  errors                   ${tally.errors.length}`);
  for (const line of [...tally.leaks, ...tally.errors].slice(0, 10)) console.log(`    ${line}`);
  process.exitCode = tally.leaks.length || tally.errors.length ? 1 : 0;
} finally {
  clearTimeout(guard);
  server.stop();
}
