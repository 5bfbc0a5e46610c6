// npm run bench: every figure in one run, next to its floor, so that a noisy shared machine shows
// in both. Prints medians (and peak RSS) and asserts nothing: targets are read here, never
// enforced in tests. The floor is what no checker can beat: as many sessions of the reference
// server as a default run starts over stdio (its session plan, per protocol era), started in
// parallel, each doing initialize and tools/list.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_SESSIONS } from '../../src/run/session-plan.js';
import { DEFAULT_IDLE_SECONDS } from '../../src/model/explore/defaults.js';
import { planCheck } from '../../src/library/check-server.js';
import { CLI, median, REFERENCE, ROOT, startHttp } from '../helpers.js';
import { bareNodeRssMb, MEMORY_SERVER, serveBounds, serveCost } from './serve-cost.js';
import { timeSelection } from './selection-bench.js';
import { installOfficialSuite, OFFICIAL_SUITE } from '../support/outside-install.js';
import { renderTable, writeReadmeTable, type TableRow } from './readme-table.js';
import { measure, TIME, type Sample } from './measure.js';
import { benchFleet } from './fleet-bench.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PD_SERVER = join(ROOT, 'dist', 'test', 'bench', 'pd-server.js');
const MODULES = join(ROOT, 'node_modules', '@modelcontextprotocol');

/** The median CPU time (s) of samples that have one. */
function medianCpu(samples: Sample[]): number | undefined {
  const cpu = samples.map((s) => s.cpuS).filter((c): c is number => c !== undefined);
  return cpu.length ? median(cpu) : undefined;
}

function medianOf(sample: () => Sample, runs = RUNS): { ms: number; rssMb?: number } {
  return medianOfSamples(Array.from({ length: runs }, sample));
}

function medianOfSamples(samples: Sample[]): { ms: number; rssMb?: number } {
  const rss = samples.map((s) => s.rssMb).filter((r): r is number => r !== undefined);
  return { ms: median(samples.map((s) => s.ms)), rssMb: rss.length ? median(rss) : undefined };
}

/** Every figure, for the table of docs/performance.md (`--write`). */
const table: TableRow[] = [];
/** A goal that can be judged: time and peak memory at most. */
interface Limit {
  ms?: number;
  mb?: number;
}
let floorMs = 0;
function row(what: string, m: { ms: number; rssMb?: number }, target = '', limit?: Limit): void {
  const ratio = floorMs ? `${(m.ms / floorMs).toFixed(2)}× floor` : '';
  const rss = m.rssMb !== undefined ? `${Math.round(m.rssMb)} MB` : 'n/a';
  const met =
    limit === undefined
      ? ''
      : (limit.ms === undefined || m.ms <= limit.ms) && (limit.mb === undefined || (m.rssMb ?? 0) <= limit.mb)
        ? ' (met)'
        : ' (not met)';
  console.log(
    `  ${what.padEnd(58)} ${`${Math.round(m.ms)} ms`.padStart(9)}  ${ratio.padStart(12)}  peak ${rss.padStart(7)}  ${target}${met}`,
  );
  table.push({
    what: what.trim(),
    median: m.ms >= 10_000 ? `${(m.ms / 1000).toFixed(1)} s` : `${Math.round(m.ms).toLocaleString('en-US')} ms`,
    rss: m.rssMb !== undefined ? rss : '',
    goal: `${target.replace(/^target:? ?/, '')}${met}`,
  });
}

/** A row printed as text (its figures are not one time and one peak). */
function textRow(what: string, figures: string, goal: string): void {
  console.log(`  ${what.padEnd(58)} ${figures}  ${goal}`);
  // "(target …)" loses its parentheses; "target … (met)" keeps its own.
  table.push({
    what,
    median: figures,
    rss: '',
    goal: goal.startsWith('(') ? goal.replace(/^\(target:? ?/, '').replace(/\)$/, '') : goal.replace(/^target:? ?/, ''),
  });
}

const HEAVY = join(ROOT, 'dist', 'fixtures', 'servers', 'heavy-start.bundle.js');
/** A bare node's resident memory, for the heavy rows (measured once). */
const bareRssMb = (await bareNodeRssMb()) ?? 0;
if (process.env.BENCH_ONLY === 'heavy') {
  heavyRows();
  process.exit(0);
}
const plan = planCheck({});
const N = 2 * plan.total;
console.log(
  `machine: ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}; medians of ${RUNS} runs (scale rows: 3)`,
);
console.log(
  `floor: ${N} reference-server sessions in parallel (stdio; the run's plan: ${plan.total} per era, two eras), initialize + tools/list, as a process`,
);

// The floor, measured here, by a process that does only that.
const floorScript = join(mkdtempSync(join(tmpdir(), 'mcp-pd-bench-')), 'floor.mjs');
writeFileSync(
  floorScript,
  `
import { serverTarget } from ${JSON.stringify(join(ROOT, 'dist', 'src', 'library', 'server-target.js'))};
const { target } = serverTarget({ command: ['node', ${JSON.stringify(REFERENCE)}], timeoutMs: 20000 });
await Promise.all(Array.from({ length: ${N} }, async (_, i) => { const s = await target.open('s' + i, { fresh: true }); await s.listAll('tools/list', 'tools'); }));
await target.dispose();
process.exit(0);
`,
);
// The floor and the full runs alternate, so that a machine busier at one moment weighs on both.
const server = await startHttp(REFERENCE);
// The number users compare: the official MCP conformance suite's full server run on the same server (its own Node).
const suite = await installOfficialSuite();
if (suite.unreachable) console.log(`(the official suite could not be installed: ${suite.unreachable})`);
const suiteSamples: Sample[] = [];
const floorSamples: Sample[] = [];
const stdioSamples: Sample[] = [];
const httpSamples: Sample[] = [];
const stdioQuietSamples: Sample[] = [];
const httpQuietSamples: Sample[] = [];
const httpColdSamples: Sample[] = [];
// The CLI keeps token counts between runs (src/util/token-cache.ts): every run here but these finds them.
const CLI_CACHE = join(ROOT, 'dist', 'cli', '.cache');
const forgetTokenCounts = () => {
  for (const f of (existsSync(CLI_CACHE) ? readdirSync(CLI_CACHE) : []).filter((f) => f.startsWith('tokens-')))
    rmSync(join(CLI_CACHE, f), { force: true });
};
for (let i = 0; i < RUNS; i++) {
  floorSamples.push(measure([floorScript]));
  stdioSamples.push(measure([CLI, '--format', 'json', '--', 'node', REFERENCE]));
  stdioQuietSamples.push(measure([CLI, '--format', 'json', '--explore', '0', '--', 'node', REFERENCE]));
  httpSamples.push(measure([CLI, '--format', 'json', '--url', server.url]));
  httpQuietSamples.push(measure([CLI, '--format', 'json', '--explore', '0', '--url', server.url]));
  forgetTokenCounts();
  httpColdSamples.push(measure([CLI, '--format', 'json', '--url', server.url]));
  if (!suite.unreachable) suiteSamples.push(measure([suite.cli, 'server', '--url', server.url], [0, 1], suite.node));
}
await server.stop();
rmSync(dirname(floorScript), { recursive: true, force: true });
floorMs = medianOfSamples(floorSamples).ms;
row(`floor (${N} sessions, initialize + tools/list)`, medianOfSamples(floorSamples));
row(
  'mcp-pd-check vs the reference server, stdio, defaults',
  medianOfSamples(stdioSamples),
  `${(medianOfSamples(stdioSamples).ms / floorMs).toFixed(2)}× the floor, target ≤ 1.5×`,
  { ms: 1.5 * floorMs },
);
const suiteMs = suiteSamples.length ? medianOfSamples(suiteSamples).ms : undefined;
if (suiteMs !== undefined)
  row(
    `the official conformance suite (${OFFICIAL_SUITE.split('@').pop()}), full server run, same server`,
    medianOfSamples(suiteSamples),
  );
const httpMs = medianOfSamples(httpSamples).ms;
// The HTTP run waits the idle window (a grant held idle 2 s at least): its wall time is the window
// and what the rest takes; its CPU time is what compares with the official suite's.
const idleS = DEFAULT_IDLE_SECONDS;
row(
  `mcp-pd-check vs the reference server, Streamable HTTP (${DEFAULT_SESSIONS.http} sessions)`,
  medianOfSamples(httpSamples),
  `target ≤ ${idleS + 1} s (the idle window, ${idleS} s, + 1 s)`,
  { ms: (idleS + 1) * 1000 },
);
const [httpCpu, suiteCpu] = [medianCpu(httpSamples), medianCpu(suiteSamples)];
if (httpCpu !== undefined && suiteCpu !== undefined) {
  textRow(
    "  its CPU time (user + system) vs the official suite's, same server",
    `${httpCpu.toFixed(2)} s vs ${suiteCpu.toFixed(2)} s (${(httpCpu / suiteCpu).toFixed(2)}×)`,
    `target ≤ 1.0×${httpCpu <= suiteCpu ? ' (met)' : ' (not met)'}`,
  );
  const coldCpu = medianCpu(httpColdSamples)!;
  textRow(
    '  the same, a first run (no token counts kept: the tokenizer loads)',
    `${coldCpu.toFixed(2)} s (${(coldCpu / suiteCpu).toFixed(2)}×), ${Math.round(medianOfSamples(httpColdSamples).ms)} ms`,
    'a CI runner without a cache of dist/cli/.cache',
  );
}
if (suiteMs !== undefined)
  textRow(
    "  its wall time vs the official suite's",
    `${(httpMs / suiteMs).toFixed(2)}×`,
    'the idle window makes it longer by design',
  );
// What exploration costs: the same runs without it (target: the default adds at most 1 s).
row(
  '  the same, stdio, --explore 0',
  medianOfSamples(stdioQuietSamples),
  `exploration adds ${Math.round(medianOfSamples(stdioSamples).ms - medianOfSamples(stdioQuietSamples).ms)} ms, target ≤ 1,000 ms`,
);
row(
  '  the same, Streamable HTTP, --explore 0',
  medianOfSamples(httpQuietSamples),
  `exploration adds ${Math.round(medianOfSamples(httpSamples).ms - medianOfSamples(httpQuietSamples).ms)} ms, target ≤ 1,000 ms`,
);

// BENCH_ONLY=core: the rows above only (issue 52's speed targets: the floor, stdio, HTTP, the official suite), in ~2
// minutes.
if (process.env.BENCH_ONLY === 'core') process.exit(0);

row(
  'mcp-pd-check --version',
  medianOf(() => measure([CLI, '--version'])),
  'target ≤ 120 ms',
  { ms: 120 },
);
row(
  'mcp-pd-check --help',
  medianOf(() => measure([CLI, '--help'])),
  'target ≤ 120 ms',
  { ms: 120 },
);
row(
  'mcp-pd-check lint of one tool description',
  medianOf(() => measure([CLI, 'lint', join(ROOT, 'reference-server', 'tool_descriptions', 'get_note.json')])),
  'target ≤ 120 ms',
  { ms: 120 },
);

// A correct server that is slow, as real ones are (1.5 s to start, 0.3 s per read, 0.8 s per call):
// its yes must not take minutes (phases, proofs and the exploration overlap).
const SLOW = join(ROOT, 'dist', 'fixtures', 'servers', 'slow-reference.bundle.js');
row(
  'a slow correct server, stdio (1.5 s start, 0.3 s/read, 0.8 s/call)',
  medianOf(() => measure([CLI, '--format', 'json', '--', 'node', SLOW]), 3),
  'target: yes within 25 s',
  { ms: 25_000 },
);
const slowHttp = await startHttp(SLOW);
row(
  '  the same over Streamable HTTP',
  medianOf(() => measure([CLI, '--format', 'json', '--url', slowHttp.url]), 3),
  'target: yes within 25 s',
  { ms: 25_000 },
);
await slowHttp.stop();

heavyRows();

// Scale: generated at bench time, never committed.
row(
  'a progressive-disclosure server with 1,000 tools (stdio)',
  medianOf(() => measure([CLI, '--format', 'json', '--', 'node', PD_SERVER, '1000']), 3),
  'target ≤ 3 s',
  { ms: 3000 },
);
row(
  'a progressive-disclosure server with 10,000 tools (stdio)',
  medianOf(() => measure([CLI, '--format', 'json', '--', 'node', PD_SERVER, '10000']), 3),
  'target ≤ 15 s, ≤ 300 MB',
  { ms: 15_000, mb: 300 },
);
const lockFile = join(mkdtempSync(join(tmpdir(), 'mcp-pd-lock-bench-')), 'mcp-tools.lock.json');
row(
  'mcp-pd-check lock of a server with 1,000 tools (stdio, both eras)',
  medianOf(() => measure([CLI, 'lock', '--out', lockFile, '--', 'node', PD_SERVER, '1000']), 3),
  'target ≤ 2 s',
  { ms: 2000 },
);
row(
  'mcp-pd-check lock --check of the same (as locked)',
  medianOf(() => measure([CLI, 'lock', '--check', lockFile, '--', 'node', PD_SERVER, '1000']), 3),
  'target ≤ 2 s',
  { ms: 2000 },
);

// init --from a saved tools/list of 1,000 tools (generated here), into a fresh folder each time.
const initDir = mkdtempSync(join(tmpdir(), 'mcp-pd-init-bench-'));
writeFileSync(
  join(initDir, 'tools.json'),
  JSON.stringify({
    tools: Array.from({ length: 1000 }, (_, i) => ({
      name: `tool_${i}`,
      description: `Tool ${i} does one thing. Details of its arguments and results follow here.`,
      inputSchema: {
        type: 'object',
        properties: {
          id: { type: 'string', pattern: '^[a-z]+-\\d+$' },
          limit: { type: 'integer', minimum: 1, maximum: 100 },
          when: { type: 'string', format: 'date-time' },
        },
        required: ['id'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: i % 2 === 0 },
    })),
  }),
);
let initRun = 0;
row(
  'mcp-pd-check init --from a tools/list of 1,000 tools',
  medianOf(
    () => measure([CLI, 'init', '--out', join(initDir, `out-${initRun++}`), '--from', join(initDir, 'tools.json')]),
    3,
  ),
  'target ≤ 3 s',
  { ms: 3000 },
);
rmSync(initDir, { recursive: true, force: true });

const corpus = mkdtempSync(join(tmpdir(), 'mcp-pd-lint-bench-'));
for (const files of [10_000, 100_000]) {
  const dir = join(corpus, String(files), 'tool_descriptions');
  generateDescriptions(dir, files);
  row(
    `lint of ${files.toLocaleString('en-US')} tool description files`,
    medianOf(() => measure([CLI, 'lint', '--format', 'json', dir]), 3),
    files === 10_000 ? 'target ≤ 2 s' : 'target ≤ 20 s, ≤ 1 GiB',
    files === 10_000 ? { ms: 2000 } : { ms: 20_000, mb: 1024 },
  );
  rmSync(join(corpus, String(files)), { recursive: true, force: true });
}
rmSync(corpus, { recursive: true, force: true });

// The selection rule (pd-selection-fidelity, lint, init): BM25 over names and minimal descriptions.
timeSelection(100);
for (const [n, target] of [
  [100, 'target ≤ 50 ms'],
  [1000, 'target ≤ 1 s'],
] as const) {
  textRow(
    `selection fidelity of ${n.toLocaleString('en-US')} tools (5 queries each, in-process)`,
    `${Math.round(timeSelection(n, n === 100 ? 7 : 3))} ms`,
    target,
  );
}

// npm start on a built tree: the incremental build has nothing to do.
row(
  'npm start on a built tree (build, then check the reference server)',
  medianOf(() => measure(['start', '--silent'], 0, 'npm'), 3),
  'target ≤ 5 s',
  { ms: 5000 },
);

// Real servers from npm, as a user's first run meets them (a verdict of 'no' exits 1).
const sandbox = mkdtempSync(join(tmpdir(), 'mcp-pd-bench-sandbox-'));
row(
  '@modelcontextprotocol/server-everything behind serve (stdio, both eras)',
  medianOf(
    () =>
      measure(
        [
          CLI,
          '--format',
          'json',
          '--',
          'node',
          CLI,
          'serve',
          '--',
          'node',
          join(MODULES, 'server-everything', 'dist', 'index.js'),
          'stdio',
        ],
        0,
      ),
    3,
  ),
  'target: yes within 8 s',
  { ms: 8000 },
);
row(
  '@modelcontextprotocol/server-everything (stdio)',
  medianOf(() =>
    measure(
      [CLI, '--format', 'json', '--', 'node', join(MODULES, 'server-everything', 'dist', 'index.js'), 'stdio'],
      1,
    ),
  ),
);
row(
  '@modelcontextprotocol/server-filesystem (stdio)',
  medianOf(() =>
    measure(
      [CLI, '--format', 'json', '--', 'node', join(MODULES, 'server-filesystem', 'dist', 'index.js'), sandbox],
      1,
    ),
  ),
);
row(
  '@modelcontextprotocol/server-memory (stdio)',
  medianOf(() =>
    measure(
      [
        CLI,
        '--format',
        'json',
        '--env',
        `MEMORY_FILE_PATH=${join(sandbox, 'memory.jsonl')}`,
        '--',
        'node',
        join(MODULES, 'server-memory', 'dist', 'index.js'),
      ],
      1,
    ),
  ),
);

// serve: a call is two messages (request, answer), each passing the proxy once.
const cost = await serveCost([MEMORY_SERVER(MODULES)], { MEMORY_FILE_PATH: join(sandbox, 'serve-memory.jsonl') });
const perMessage = (cost.proxiedMs - cost.directMs) / 2;
const bare = await bareNodeRssMb();
textRow(
  'serve: a call of server-memory read_graph, straight / through it',
  `${cost.directMs.toFixed(2)} / ${cost.proxiedMs.toFixed(2)} ms, +${perMessage.toFixed(2)} ms per message; proxy RSS ${cost.proxyRssMb !== undefined ? `${Math.round(cost.proxyRssMb)} MB` : 'n/a'}${cost.proxyRssMb !== undefined && bare !== undefined ? `, ${Math.round(cost.proxyRssMb - bare)} MB over an idle node` : ''}`,
  'target ≤ 1 ms per message, ≤ 30 MB over an idle node',
);
const bounds = await serveBounds([process.execPath, join(ROOT, 'dist', 'test', 'support', 'recording-upstream.js')]);
textRow(
  'serve --listen: 2,000 initialize POSTs',
  `+${Math.round(bounds.sessions.addedMb)} MB; answered ${bounds.sessions.kept} (--max-sessions 256)`,
  'target: bounded',
);
textRow(
  'serve: one 200 MB line from a client',
  `${bounds.hugeLine.cpuS.toFixed(2)} s CPU, peak ${Math.round(bounds.hugeLine.peakMb)} MB`,
  'target: linear time, ≤ 100 MB',
);
textRow(
  'serve: a client that never reads stdout',
  `peak ${Math.round(bounds.unread.peakMb)} MB, ${bounds.unread.sent.toLocaleString('en-US')} requests of 10 KB written`,
  'target ≤ 100 MB',
);
rmSync(sandbox, { recursive: true, force: true });

// Sweeps (issue 57): a fleet on one machine, the same in shards, their merge. Minutes: BENCH_FLEET=0 leaves them out.
if (process.env.BENCH_FLEET !== '0')
  for (const r of benchFleet())
    row(r.what, r.sample, r.target, r.limitMs !== undefined ? { ms: r.limitMs } : undefined);
if (!TIME) console.log('(peak RSS needs GNU time at /usr/bin/time: not found here)');
if (process.argv.includes('--write')) {
  const machine = `Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}; medians of ${RUNS} runs (the scale rows: 3)${TIME ? '; peak RSS from GNU time' : ''}`;
  console.log(
    writeReadmeTable(renderTable(table, machine))
      ? 'docs/performance.md: the Performance table written'
      : 'docs/performance.md: no bench markers found, nothing written',
  );
}

/**
 * Default runs of the heavy-start fixture (its load given by --env): the median time and peak RSS
 * (GNU time: the largest process of the run), the server processes the report says it started, the
 * servers' memory at their peak together (the report's cost, sampled from /proc), and what its
 * probe held when the run found the server heavy.
 */
function heavyRun(env: string[]): {
  sample: { ms: number; rssMb?: number };
  cost: string;
  serversMb: number;
  heavyMb?: number;
} {
  const runs = Array.from({ length: 3 }, () => {
    const out = join(mkdtempSync(join(tmpdir(), 'mcp-pd-heavy-')), 'report.json');
    const sample = measure([CLI, '--format', 'json', '--output', out, ...env, '--', 'node', HEAVY]);
    const cost = (
      JSON.parse(readFileSync(out, 'utf8')) as {
        cost?: {
          processes: number;
          atOnce: number;
          peakMemoryMb?: number;
          heavyMb?: number;
          costlyStart?: { cpuMs: number; startsAtOnce: number };
        };
      }
    ).cost;
    rmSync(dirname(out), { recursive: true, force: true });
    return { sample, cost };
  });
  const last = runs[runs.length - 1].cost;
  const heavyMb = last?.heavyMb;
  return {
    sample: medianOfSamples(runs.map((r) => r.sample)),
    cost: last
      ? `${last.processes} server processes, ${last.atOnce} at once${heavyMb !== undefined ? ' (heavy: the eras one after the other)' : ''}${last.costlyStart ? ` (costly to start, ${last.costlyStart.cpuMs} ms of CPU measured: ${last.costlyStart.startsAtOnce} starts at a time)` : ''}`
      : 'no cost in the report',
    serversMb: Math.round(median(runs.map((r) => r.cost?.peakMemoryMb ?? 0))),
    ...(heavyMb !== undefined ? { heavyMb } : {}),
  };
}

/** N tool descriptions, each with its own schema (as in a real catalogue: no cache helps). */
function generateDescriptions(dir: string, count: number): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    const name = `tool_${i}`;
    writeFileSync(
      join(dir, `${name}.json`),
      JSON.stringify(
        {
          name,
          description: `Tool number ${i}: does one thing of kind ${i} and returns the result as JSON.`,
          inputSchema: {
            type: 'object',
            properties: {
              id: { type: 'string', pattern: '^[a-z]+-\\d+$' },
              limit: { type: 'integer', minimum: 1, maximum: 100 + i },
            },
            required: ['id'],
            additionalProperties: false,
          },
          examples: [{ description: 'Basic', input: { id: `item-${i}`, limit: 10 } }],
          usage_guidance: { common_patterns: ['Call it with an id.'] },
          error_guidance: {
            common_errors: [{ error: 'NOT_FOUND', cause: 'Unknown id.', solution: 'List ids first.' }],
          },
        },
        null,
        2,
      ),
    );
  }
}

/**
 * Heavy servers (issue 54) and servers costly to start (issue 69): every session over stdio is a
 * server process, so what a start costs is paid once per process of the run's plan. Side by side
 * with the reference server, run here too. BENCH_ONLY=heavy: these rows alone.
 */
function heavyRows(): void {
  const reference = heavyRun([]);
  const cpuHeavy = heavyRun(['--env', 'HEAVY_CPU_MS=1000']);
  row('the reference server again, stdio, both eras (for the two rows below)', reference.sample, `${reference.cost}`);
  row(
    '  a server that burns 1 s of CPU at every start',
    cpuHeavy.sample,
    `${(cpuHeavy.sample.ms / reference.sample.ms).toFixed(1)}× the reference server, target ≤ 3×; ${cpuHeavy.cost}`,
    { ms: 3 * reference.sample.ms },
  );
  const memoryHeavy = heavyRun(['--env', 'HEAVY_MB=150']);
  // One server: what its probe held, as the run read it (else 150 MB over a bare node's).
  const oneServerMb = memoryHeavy.heavyMb ?? 150 + bareRssMb;
  // The checker's own peak is the reference run's (GNU time's figure is the largest process's, and
  // there the checker is; here it would be a server, counted twice). Its memory does not follow the server's.
  const checkerMb = reference.sample.rssMb ?? 0;
  const runPeakMb = Math.round(memoryHeavy.serversMb + checkerMb);
  textRow(
    '  a server that holds 150 MB at every start: peak memory of the run',
    `${runPeakMb.toLocaleString('en-US')} MB (checker ≈ ${Math.round(checkerMb)} MB + servers at their peak ${memoryHeavy.serversMb.toLocaleString('en-US')} MB; one server ≈ ${Math.round(oneServerMb)} MB); ${memoryHeavy.cost}`,
    `target ≤ 4× one server${runPeakMb <= 4 * oneServerMb ? ' (met)' : ' (not met)'}`,
  );
}
