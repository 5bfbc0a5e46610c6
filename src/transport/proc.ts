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

/** A process's resident memory (kB), from /proc/<pid>/status; undefined when it is gone or unreadable. */
export function residentKb(pid: string): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined; // gone meanwhile
  }
}

/**
 * The resident memory (kB) of every process in the process groups or sessions led by `leaders`
 * (a server and what it started: `npx` and the node it runs are one server), summed; undefined
 * where none could be read (no /proc).
 */
export function groupsResidentKb(leaders: ReadonlySet<number>): number | undefined {
  let kb: number | undefined;
  for (const pid of processIds()) {
    const ids = groupAndSession(pid);
    if (!ids || !(leaders.has(ids[0]) || leaders.has(ids[1]))) continue;
    const rss = residentKb(pid);
    if (rss !== undefined) kb = (kb ?? 0) + rss;
  }
  return kb;
}
