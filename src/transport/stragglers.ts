import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { groupAndSession, processIds } from './proc.js';
import type { ProcessMeter } from './process-meter.js';

/**
 * The processes one target started, and everything they started in turn: each server process of a
 * family starts as the leader of its own process group and session, and carries the family's own
 * marker variable, which its descendants inherit — a grandchild that left the group (setsid) is out
 * of reach of a group kill, but not of the marker. Several targets of one process (a fleet run with
 * --jobs) are several families: cleaning up after one never touches another's processes.
 */
export class ProcessFamily {
  /**
   * A variable of its own name (not a shared name with its own value): a server started by a server of another family
   * keeps both marks.
   */
  private readonly marker = `MCP_PD_CHECK_RUN_${process.pid}_${randomUUID().replace(/-/g, '')}`;
  private readonly needle = Buffer.from(`${this.marker}=1\0`);
  /** The process groups (= sessions) of the servers it started. */
  private readonly groups = new Set<number>();
  /** Set when a server is started; a sweep clears it, so families that started nothing never scan /proc. */
  private armed = false;

  /** `meter`: the run's count of server processes and their memory (shared by the eras' families). */
  constructor(private readonly meter?: ProcessMeter) {}

  /** The environment entries for a server of this family about to start. */
  environment(): Record<string, string> {
    this.armed = true;
    LIVE_FAMILIES.add(this);
    return { [this.marker]: '1' };
  }

  /** Records a started server's pid, which is its process group and session id. */
  remember(pid: number): void {
    this.groups.add(pid);
    this.meter?.onStart(pid);
  }

  /** A started server exited (its group is still swept at the end: helpers may outlive it). */
  exited(pid: number): void {
    this.meter?.onExit(pid);
  }

  /**
   * Kills every process that still carries this family's marker, or is in the process group or
   * session of a server of this family (Linux: read from /proc; elsewhere the process-group kill
   * is all there is). Synchronous, so that it can run in an 'exit' handler. Returns how many.
   */
  killStragglers(): number {
    if (!this.armed) return 0;
    this.armed = false;
    LIVE_FAMILIES.delete(this);
    let killed = 0;
    for (const pid of processIds()) {
      const ids = groupAndSession(pid);
      const inOurGroups = ids !== undefined && (this.groups.has(ids[0]) || this.groups.has(ids[1]));
      if (!inOurGroups && !this.marks(pid)) continue;
      try {
        process.kill(Number(pid), 'SIGKILL');
        killed++;
      } catch {
        /* exited meanwhile */
      }
    }
    return killed;
  }

  private marks(pid: string): boolean {
    try {
      return readFileSync(`/proc/${pid}/environ`).indexOf(this.needle) >= 0;
    } catch {
      return false; // gone, or not ours to read
    }
  }
}

/** Families that started servers and have not swept yet: the process's exit sweeps them all. */
const LIVE_FAMILIES = new Set<ProcessFamily>();

/** Sweeps every family of this process (its 'exit' handler). */
export function killAllStragglers(): void {
  for (const family of [...LIVE_FAMILIES]) family.killStragglers();
}
