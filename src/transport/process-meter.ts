import { groupMembers, residentKbOf } from './proc.js';

/** What a run cost in server processes (over stdio): how many started, how many at once, their memory. */
export interface ServerCost {
  /** Server processes started in the whole run (every era). */
  processes: number;
  /** The most that were alive at the same time. */
  atOnce: number;
  /**
   * The highest sum of their resident memory (with what they started), sampled from /proc; absent where there is none.
   */
  peakMemoryMb?: number;
}

/** How often the servers' memory is read while any is alive. */
const SAMPLE_MS = 200;
/**
 * How often the processes of the servers' groups are looked for anew (every process's /proc/<pid>/stat,
 * hundreds on a busy machine); in between only the known ones are read. A server is known from its
 * start; what it starts itself (the node that `npx` runs) is found by the next look.
 */
const RESCAN_MS = 1_000;

/**
 * Counts the server processes a run starts and samples their memory (each server's process group
 * and session, so that `npx` and the node it starts count as one server). One meter per run, shared
 * by the targets of every era; it reads /proc and prints nothing, and no verdict depends on it.
 */
export class ProcessMeter {
  private started = 0;
  private readonly alive = new Set<number>();
  private mostAlive = 0;
  private peakKb = 0;
  private sampled = false;
  private timer: NodeJS.Timeout | undefined;
  /** The processes of the live servers' groups, as last looked for (and the servers started since). */
  private members = new Set<string>();
  private scannedAt = -Infinity;

  /** A server process started (its pid is its process group and session). */
  onStart(pid: number): void {
    this.started++;
    this.alive.add(pid);
    this.mostAlive = Math.max(this.mostAlive, this.alive.size);
    this.members.add(String(pid));
    if (!this.timer) {
      this.timer = setInterval(() => this.sample(), SAMPLE_MS);
      this.timer.unref();
    }
  }

  /** A server process ended: it is no longer counted, and sampling stops once none is alive. */
  onExit(pid: number): void {
    this.alive.delete(pid);
    this.members.delete(String(pid));
    if (this.alive.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  cost(): ServerCost {
    return {
      processes: this.started,
      atOnce: this.mostAlive,
      ...(this.sampled ? { peakMemoryMb: Math.round(this.peakKb / 1024) } : {}),
    };
  }

  /** The resident memory of every process in the groups or sessions of the live servers, summed. */
  private sample(): void {
    const now = performance.now();
    if (now - this.scannedAt >= RESCAN_MS) {
      this.members = new Set(groupMembers(this.alive));
      this.scannedAt = now;
    }
    const kb = residentKbOf(this.members);
    if (kb === undefined) return;
    this.sampled = true;
    this.peakKb = Math.max(this.peakKb, kb);
  }
}
