// Processes as Linux's /proc tells them (elsewhere: none), for the stragglers' sweep and the run's meter.
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';

/**
 * One buffer for the small /proc files read here. Such a file says its size is 0, so readFileSync
 * reads each into a new 64 KB buffer: that was most of what the run's meter cost (~0.1 s a run).
 */
const PROC_BUFFER = Buffer.allocUnsafe(16 * 1024);

/** A small /proc file's text (at most 16 KB), or undefined when the process is gone or it cannot be read. */
function readProcFile(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    let length = 0;
    for (let n = 1; n > 0 && length < PROC_BUFFER.length; length += n)
      n = readSync(fd, PROC_BUFFER, length, PROC_BUFFER.length - length, null);
    return PROC_BUFFER.toString('latin1', 0, length);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

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
  const stat = readProcFile(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return [Number(fields[2]), Number(fields[3])];
}

/** A process's resident memory (kB), from /proc/<pid>/status; undefined when it is gone or unreadable. */
function residentKb(pid: string): number | undefined {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readProcFile(`/proc/${pid}/status`) ?? '');
  return m ? Number(m[1]) : undefined;
}

/** The resident memory (kB) of these processes, summed; undefined where none could be read. */
export function residentKbOf(pids: Iterable<string>): number | undefined {
  let kb: number | undefined;
  for (const pid of pids) {
    const rss = residentKb(pid);
    if (rss !== undefined) kb = (kb ?? 0) + rss;
  }
  return kb;
}

/**
 * The processes in the process groups or sessions led by `leaders` (a server and what it started:
 * `npx` and the node it runs are one server).
 */
export function groupMembers(leaders: ReadonlySet<number>): string[] {
  return processIds().filter((pid) => {
    const ids = groupAndSession(pid);
    return ids !== undefined && (leaders.has(ids[0]) || leaders.has(ids[1]));
  });
}

/** Clock ticks a second in /proc's CPU times (USER_HZ: 100 on every Linux Node runs on). */
const TICKS_PER_SECOND = 100;

/**
 * The CPU time (ms, user and system) of every process in the groups or sessions led by `leaders`,
 * with their children that have ended (npx and what it ran); undefined where none could be read.
 */
export function groupsCpuMs(leaders: ReadonlySet<number>): number | undefined {
  let ticks: number | undefined;
  for (const pid of groupMembers(leaders)) {
    const stat = readProcFile(`/proc/${pid}/stat`);
    if (stat === undefined) continue;
    // After the command name: state, ppid, pgrp, session, tty, tpgid, flags, 4 fault counts, then utime, stime, cutime,
    // cstime.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks = (ticks ?? 0) + [11, 12, 13, 14].reduce((n, i) => n + Number(fields[i] ?? 0), 0);
  }
  return ticks === undefined ? undefined : (ticks * 1000) / TICKS_PER_SECOND;
}

/**
 * The resident memory (kB) of every process in the groups or sessions led by `leaders`, summed; undefined where none
 * could be read (no /proc).
 */
export function groupsResidentKb(leaders: ReadonlySet<number>): number | undefined {
  return residentKbOf(groupMembers(leaders));
}
