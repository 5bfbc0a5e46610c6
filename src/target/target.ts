import { McpSession } from './session.js';
import { StdioWire, type StdioCommand } from './stdio.js';
import { TargetUnavailableError } from './types.js';
import type { ReportTarget } from '../generated/report.js';

/** How many spare sessions start at the same time. */
const WARMERS = 2;

export interface OpenOptions {
  /** Start a brand-new session now rather than take a warmed-up one (used to prove "starts bare"). */
  fresh?: boolean;
}

/** Something that can open initialized MCP sessions: a stdio command, or (later) a URL. */
export interface Target {
  readonly kind: ReportTarget['kind'];
  readonly describe: string;
  open(label: string, options?: OpenOptions): Promise<McpSession>;
  /** A hint: about `count` sessions will be opened soon; a target may start them ahead. */
  reserve(count: number): void;
  /** Closes every session it started, spares included. */
  dispose(): Promise<void>;
}

/**
 * A stdio target: each session is one server process. Starting a process is the slow part of a
 * run (~0.2 s of CPU for a Node server), while the checker mostly waits; so reserved sessions are
 * started ahead, one at a time, on the otherwise idle core. A spare is idle and has fetched
 * nothing, so it cannot change what any check observes.
 */
export class StdioTarget implements Target {
  readonly kind = 'stdio' as const;
  readonly describe: string;
  private readonly spares: Array<Promise<McpSession>> = [];
  private reserved = 0;
  private warming = 0;
  private disposed = false;
  private readonly started = new Set<McpSession>();

  constructor(private readonly command: StdioCommand, private readonly timeoutMs: number) {
    this.describe = [command.command, ...command.args].map(quoteIfNeeded).join(' ');
  }

  reserve(count: number): void {
    this.reserved = count;
    this.pump();
  }

  async open(label: string, options: OpenOptions = {}): Promise<McpSession> {
    let session: McpSession | undefined;
    if (!options.fresh) {
      this.reserved = Math.max(0, this.reserved - 1);
      const spare = this.spares.shift();
      if (spare) session = await spare.catch(() => undefined);
      if (session?.closed) session = undefined;
    }
    session ??= await this.start(label);
    session.relabel(label);
    return session;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const spares = this.spares.splice(0);
    await Promise.all(spares.map((s) => s.then((x) => x.close(), () => {})));
    await Promise.all([...this.started].map((s) => s.close()));
  }

  private pump(): void {
    if (this.warming >= WARMERS || this.disposed || this.spares.length >= this.reserved) return;
    this.warming++;
    const spare = this.start('spare');
    this.spares.push(spare);
    spare.then(
      () => { this.warming--; this.pump(); },
      () => { this.warming--; }, // a target that fails to start is reported by open(), not here
    );
  }

  private async start(label: string): Promise<McpSession> {
    const wire = await StdioWire.start(this.command);
    const session = new McpSession(wire, { label, timeoutMs: this.timeoutMs });
    this.started.add(session);
    try {
      await session.initialize();
    } catch (err) {
      await session.close();
      throw err;
    }
    return session;
  }
}

function quoteIfNeeded(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export { TargetUnavailableError };
