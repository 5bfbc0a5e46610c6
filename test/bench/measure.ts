// One process timed from outside, for the benches: wall time, and peak RSS and CPU time (user +
// system) from GNU time when the machine has it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ROOT } from '../helpers.js';

export const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

export interface Sample {
  ms: number;
  rssMb?: number;
  cpuS?: number;
  code: number | null;
}

/** One process, timed from outside (wall time; peak RSS and CPU time, user + system, from GNU time when present). */
export function measure(args: string[], expectCode: number | number[] = 0, program = process.execPath): Sample {
  const command = TIME ? [TIME, '-f', '%U %S %M', program, ...args] : [program, ...args];
  const started = performance.now();
  const run = spawnSync(command[0], command.slice(1), { cwd: ROOT, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  const ms = performance.now() - started;
  const expected = Array.isArray(expectCode) ? expectCode : [expectCode];
  if (!expected.includes(run.status ?? -1)) {
    process.stderr.write(`${args.slice(0, 4).join(' ')}…: exit ${run.status}: ${run.stderr.slice(-400)}\n`);
    process.exit(1);
  }
  const figures = TIME ? /([\d.]+) ([\d.]+) (\d+)\s*$/.exec(run.stderr) : null;
  const rss = figures ? Number(figures[3]) / 1024 : undefined;
  const cpuS = figures ? Number(figures[1]) + Number(figures[2]) : undefined;
  return { ms, rssMb: rss, cpuS, code: run.status };
}
