// The bench's rows: medians of samples, and a row printed beside the floor (its ratio to it, its peak
// memory, its goal and whether it was met), each kept for the table of docs/performance.md.
import { median } from '../helpers.js';
import type { TableRow } from './readme-table.js';
import type { Sample } from './measure.js';

export const RUNS = Number(process.env.BENCH_RUNS ?? 5);

/** The median CPU time (s) of samples that have one. */
export function medianCpu(samples: Sample[]): number | undefined {
  const cpu = samples.map((s) => s.cpuS).filter((c): c is number => c !== undefined);
  return cpu.length ? median(cpu) : undefined;
}

export function medianOf(sample: () => Sample, runs = RUNS): { ms: number; rssMb?: number } {
  return medianOfSamples(Array.from({ length: runs }, sample));
}

export function medianOfSamples(samples: Sample[]): { ms: number; rssMb?: number } {
  const rss = samples.map((s) => s.rssMb).filter((r): r is number => r !== undefined);
  return { ms: median(samples.map((s) => s.ms)), rssMb: rss.length ? median(rss) : undefined };
}

/** Every figure, for the table of docs/performance.md (`--write`). */
export const table: TableRow[] = [];
/** A goal that can be judged: time and peak memory at most. */
interface Limit {
  ms?: number;
  mb?: number;
}
let floorMs = 0;
/** The floor's median (ms), once measured: every row after it gives its ratio to it. */
export function setFloorMs(ms: number): void {
  floorMs = ms;
}
export function row(what: string, m: { ms: number; rssMb?: number }, target = '', limit?: Limit): void {
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
export function textRow(what: string, figures: string, goal: string): void {
  console.log(`  ${what.padEnd(58)} ${figures}  ${goal}`);
  // "(target …)" loses its parentheses; "target … (met)" keeps its own.
  table.push({
    what,
    median: figures,
    rss: '',
    goal: goal.startsWith('(') ? goal.replace(/^\(target:? ?/, '').replace(/\)$/, '') : goal.replace(/^target:? ?/, ''),
  });
}
