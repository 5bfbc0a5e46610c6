// The bench's heavy rows (issues 54 and 69): default runs of the heavy-start fixture, a server that
// burns CPU or holds memory at every start, side by side with the reference server.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CLI, median, ROOT } from '../helpers.js';
import { measure } from './measure.js';
import { medianOfSamples, row, textRow } from './rows.js';

const HEAVY = join(ROOT, 'dist', 'fixtures', 'servers', 'heavy-start.bundle.js');

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

/**
 * Heavy servers (issue 54) and servers costly to start (issue 69): every session over stdio is a
 * server process, so what a start costs is paid once per process of the run's plan. Side by side
 * with the reference server, run here too. BENCH_ONLY=heavy: these rows alone. `bareRssMb`: a bare
 * node's resident memory (measured once, by the caller).
 */
export function heavyRows(bareRssMb: number): void {
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
