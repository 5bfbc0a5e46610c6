import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Every server process this run starts carries this variable, and so does everything it starts
 * in turn: a grandchild that left the server's process group (setsid) is out of reach of a group
 * kill, but not of this marker.
 */
const MARKER_NAME = 'MCP_PD_CHECK_RUN';
const MARKER_VALUE = `${process.pid}-${randomUUID()}`;
const RUN_MARKER: Record<string, string> = { [MARKER_NAME]: MARKER_VALUE };
/** Set when a server is started; a sweep clears it, so runs that started nothing never scan /proc. */
let armed = false;
/**
 * The process groups (= sessions: each server starts detached, as the leader of both) of every
 * server this run started. A helper that emptied its environment loses the marker but keeps these.
 */
const groups = new Set<number>();

/** Records a started server's pid, which is its process group and session id. */
export function rememberGroup(pid: number): void {
  groups.add(pid);
}

/** The environment entries for a server about to start (and a sweep due at the end). */
export function markedEnvironment(): Record<string, string> {
  armed = true;
  return RUN_MARKER;
}
const NEEDLE = Buffer.from(`${MARKER_NAME}=${MARKER_VALUE}\0`);

/** The process group and session of a process, from /proc/<pid>/stat (after the command name). */
function groupAndSession(pid: string): [number, number] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [Number(fields[2]), Number(fields[3])];
  } catch {
    return undefined;
  }
}

/**
 * Kills every process that still carries this run's marker, or is in the process group or
 * session of a server this run started (Linux: read from /proc; elsewhere there is nothing to
 * read and the process-group kill is all there is). Synchronous, so that it can run in an 'exit'
 * handler. Returns how many were killed.
 */
export function killStragglers(): number {
  if (!armed) return 0;
  armed = false;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
  } catch {
    return 0;
  }
  let killed = 0;
  for (const pid of pids) {
    const ids = groupAndSession(pid);
    const inOurGroups = ids !== undefined && (groups.has(ids[0]) || groups.has(ids[1]));
    if (!inOurGroups) {
      let environ: Buffer;
      try {
        environ = readFileSync(`/proc/${pid}/environ`);
      } catch {
        continue; // gone, or not ours to read
      }
      if (environ.indexOf(NEEDLE) < 0) continue;
    }
    try {
      process.kill(Number(pid), 'SIGKILL');
      killed++;
    } catch {
      /* exited meanwhile */
    }
  }
  return killed;
}
