// npm run bench: every figure in one run, next to its floor, so that a noisy shared machine shows
// in both. Prints medians (and peak RSS) and asserts nothing: targets are read here, never
// enforced in tests. The floor is what no checker can beat: as many sessions of the reference
// server as a default run starts over stdio (its session plan, per protocol era), started in
// parallel, each doing initialize and tools/list.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_SESSIONS } from '../../src/run/session-plan.js';
import { userCacheFolder } from '../../src/util/cache-folder.js';
import { DEFAULT_IDLE_SECONDS } from '../../src/model/explore/defaults.js';
import { planCheck } from '../../src/library/check-server.js';
import { CLI, REFERENCE, ROOT, startHttp } from '../helpers.js';
import { bareNodeRssMb } from './serve-cost.js';
import { installOfficialSuite, OFFICIAL_SUITE } from '../support/outside-install.js';
import { renderTable, writeReadmeTable } from './readme-table.js';
import { measure, TIME, type Sample } from './measure.js';
import { benchFleet } from './fleet-bench.js';
import { heavyRows } from './heavy-rows.js';
import { npmServerRows } from './npm-server-rows.js';
import { medianCpu, medianOf, medianOfSamples, row, RUNS, setFloorMs, table, textRow } from './rows.js';
import { scaleRows } from './scale-rows.js';
import { qualityRows } from './quality-bench.js';

/** A bare node's resident memory, for the heavy rows (measured once). */
const bareRssMb = (await bareNodeRssMb()) ?? 0;
if (process.env.BENCH_ONLY === 'heavy') {
  heavyRows(bareRssMb);
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'quality') {
  await qualityRows();
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
const CLI_CACHE = userCacheFolder() ?? join(ROOT, 'dist', 'cli', '.cache');
const forgetTokenCounts = () => {
  for (const f of (existsSync(CLI_CACHE) ? readdirSync(CLI_CACHE) : []).filter((f) => f.startsWith('tokens-')))
    rmSync(join(CLI_CACHE, f), { force: true });
};
const pluginSamples: Sample[] = [];
const pluginFile = examplePlugin();
for (let i = 0; i < RUNS; i++) {
  floorSamples.push(measure([floorScript]));
  stdioSamples.push(measure([CLI, '--format', 'json', '--', 'node', REFERENCE]));
  pluginSamples.push(measure([CLI, '--plugin', pluginFile, '--format', 'json', '--', 'node', REFERENCE]));
  stdioQuietSamples.push(measure([CLI, '--format', 'json', '--explore', '0', '--', 'node', REFERENCE]));
  httpSamples.push(measure([CLI, '--format', 'json', '--url', server.url]));
  httpQuietSamples.push(measure([CLI, '--format', 'json', '--explore', '0', '--url', server.url]));
  forgetTokenCounts();
  httpColdSamples.push(measure([CLI, '--format', 'json', '--url', server.url]));
  if (!suite.unreachable) suiteSamples.push(measure([suite.cli, 'server', '--url', server.url], [0, 1], suite.node));
}
await server.stop();
rmSync(dirname(floorScript), { recursive: true, force: true });
const floorMs = medianOfSamples(floorSamples).ms;
setFloorMs(floorMs);
row(`floor (${N} sessions, initialize + tools/list)`, medianOfSamples(floorSamples));
row(
  'mcp-pd-check vs the reference server, stdio, defaults',
  medianOfSamples(stdioSamples),
  `${(medianOfSamples(stdioSamples).ms / floorMs).toFixed(2)}× the floor, target ≤ 1.5×`,
  { ms: 1.5 * floorMs },
);
{
  // A plugin loaded costs its import and its checks (issue 71: at most 50 ms more); none loaded costs nothing.
  const [plain, plugged] = [medianOfSamples(stdioSamples).ms, medianOfSamples(pluginSamples).ms];
  const [plainCpu, pluggedCpu] = [medianCpu(stdioSamples), medianCpu(pluginSamples)];
  row(
    '  the same with the example plugin loaded (its 3 checks)',
    medianOfSamples(pluginSamples),
    `${Math.round(plugged - plain)} ms more${plainCpu !== undefined && pluggedCpu !== undefined ? `, ${Math.round((pluggedCpu - plainCpu) * 1000)} ms more CPU` : ''}, target ≤ 50 ms`,
    { ms: plain + 50 },
  );
}
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
    'a CI runner without a cache of ~/.cache/mcp-pd-check',
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

heavyRows(bareRssMb);

scaleRows();
await qualityRows();

// npm start on a built tree: the incremental build has nothing to do.
row(
  'npm start on a built tree (build, then check the reference server)',
  medianOf(() => measure(['start', '--silent'], 0, 'npm'), 3),
  'target ≤ 5 s',
  { ms: 5000 },
);

await npmServerRows();

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
 * The example plugin (examples/plugin-acme) as a project has it: beside a node_modules whose
 * mcp-pd-check is this checkout. Returns its entry's path.
 */
function examplePlugin(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-pd-plugin-bench-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'mcp-pd-check'), 'dir');
  cpSync(join(ROOT, 'examples', 'plugin-acme'), join(dir, 'plugin-acme'), { recursive: true });
  return join(dir, 'plugin-acme', 'index.js');
}
