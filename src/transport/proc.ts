// Processes as Linux's /proc tells them (elsewhere: none), for the stragglers' sweep and the run's meter.
import { readdirSync, readFileSync } from 'node:fs';

/** The ids of every process but this one, from /proc (none where there is no /proc). */
export function processIds(): string[] {
  try {
    return readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
  } catch {
    return [];
  }
}

/** The process group and session of a process, from /proc/<pid>/stat (after the command name). */
export function groupAndSession(pid: string): [number, number] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [Number(fields[2]), Number(fields[3])];
  } catch {
    return undefined;
  }
}
