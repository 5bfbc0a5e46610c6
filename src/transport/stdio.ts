import { within } from '../util/concurrency.js';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { TargetUnavailableError, type JsonObject, type Wire } from './types.js';
import { clip, sanitizeLine, asText } from '../util/text.js';
import { DEFAULT_LIMITS, megabytes, parseMessage, TOO_LARGE, type WireLimits } from './limits.js';
import { killAllStragglers, type ProcessFamily } from './stragglers.js';
import { startsContainer } from './container-command.js';
import { groupsCpuMs, groupsResidentKb } from './proc.js';
import { defaultEnvironment } from './server-environment.js';

export interface StdioCommand {
  command: string;
  args: string[];
  cwd?: string;
  /** Added to the server's environment (--env). */
  env?: Record<string, string>;
  /**
   * Give the server the checker's whole environment (--inherit-env). Off by default: like MCP
   * clients, the server gets only a safe default set (see `defaultEnvironment`) plus `env`.
   */
  inheritEnv?: boolean;
}

const STDERR_TAIL_LINES = 20;
/** After a server process exits, how long to wait for the rest of its stderr (its last words). */
const STDERR_DRAIN_MS = 250;
/** How long a session's processes get to end after SIGTERM before the group is SIGKILLed. */
const GRACE_MS = 1000;
/**
 * How long a server that was sent a cancellation gets to end on its own once its stdin is closed,
 * before SIGTERM (MCP's stdio shutdown: close the input, wait for the server to exit, then SIGTERM):
 * it reads the cancellation and stops its tool. Only then: servers that do not end at EOF
 * (server-everything) would pay it at every close, ~0.9 s of a run behind serve.
 */
const EOF_GRACE_MS = 100;

/** Every child we started, so that none outlives the checker (killed by process group). */
const liveChildren = new Set<ChildProcessWithoutNullStreams>();
let exitHookInstalled = false;

/** Installed when the first server starts, not on import: importing the library changes nothing. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of liveChildren) killGroup(child, 'SIGKILL');
    killAllStragglers();
  });
}

/** Waits for `exited`, at most `ms`. */
async function endsWithin(exited: Promise<unknown>, ms: number): Promise<void> {
  await within(exited, ms);
}

function killGroup(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}

/** Whether any process is left in the group (signal 0 only asks). */
function groupAlive(pgid: number | undefined): boolean {
  if (pgid === undefined) return false;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One MCP session over stdio = one server process, speaking newline-delimited JSON. */
export class StdioWire implements Wire {
  readonly describe: string;
  private readonly child: ChildProcessWithoutNullStreams;
  private messageHandler: (m: JsonObject) => void = () => {};
  private garbageHandler: (t: string) => void = () => {};
  private closeHandlers: Array<(reason: string, lost?: boolean) => void> = [];
  /** The checker is ending the session: the exit that follows is its doing. */
  private closing = false;
  /** A call of this session was cancelled: at close, the server gets a moment to read it and end. */
  private cancelledCalls = false;
  private closedReason: string | undefined;
  private readonly stderrLines: string[] = [];
  private stderrTotal = 0;
  private readonly startedAt = performance.now();
  /** When the server first wrote to stdout (its first answer, or what it logged there). */
  private firstLineAt: number | undefined;
  private stdoutBuffer = '';
  /** A message over --max-response ended the session: nothing more is read. */
  private cut = false;
  private stderrPartial = '';
  private readonly exited: Promise<void>;
  readonly startsContainer: boolean;

  private constructor(
    cmd: StdioCommand,
    child: ChildProcessWithoutNullStreams,
    private readonly limits: WireLimits,
    private readonly redact: (text: string) => string,
  ) {
    this.describe = [cmd.command, ...cmd.args].join(' ');
    this.startsContainer = startsContainer(cmd.command, cmd.args);
    this.child = child;
    liveChildren.add(child);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.onStdout(chunk));
    child.stderr.on('data', (chunk: string) => this.onStderr(chunk));
    // Writing to a server that already died raises EPIPE: that is a closed session, not a crash.
    child.stdin.on('error', () => {});
    const stderrEnded = new Promise<void>((done) => child.stderr.once('end', () => done()).once('close', () => done()));
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        liveChildren.delete(child);
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        // What it wrote on stderr just before it died may still be in the pipe: read it first (a
        // helper that keeps the pipe open must not hold the report back, so not for long).
        void within(stderrEnded, STDERR_DRAIN_MS).then(() => {
          this.markClosed(`the server process ${how}`, !this.closing);
          resolve();
        });
      });
    });
  }

  /**
   * Spawns the command and resolves once the process is running; rejects if it cannot start.
   * `family`: the processes of the target that starts it (cleaned up together, and only them).
   */
  static start(
    cmd: StdioCommand,
    family: ProcessFamily,
    limits: WireLimits = DEFAULT_LIMITS,
    redact: (text: string) => string = (t) => t,
  ): Promise<StdioWire> {
    installExitHook();
    return new Promise((resolve, reject) => {
      let child: ChildProcessWithoutNullStreams;
      try {
        child = spawn(cmd.command, cmd.args, {
          cwd: cmd.cwd,
          // The marker is inherited by every descendant, even one that leaves the process group.
          env: { ...(cmd.inheritEnv ? process.env : defaultEnvironment()), ...cmd.env, ...family.environment() },
          stdio: ['pipe', 'pipe', 'pipe'],
          // Own process group, so that grandchildren die with it.
          detached: true,
        });
      } catch (err) {
        reject(new TargetUnavailableError(startFailure(cmd, err)));
        return;
      }
      child.once('error', (err) => reject(new TargetUnavailableError(startFailure(cmd, err))));
      child.once('spawn', () => {
        if (child.pid !== undefined) {
          const pid = child.pid;
          family.remember(pid);
          child.once('exit', () => family.exited(pid));
        }
        resolve(new StdioWire(cmd, child, limits, redact));
      });
    });
  }

  send(message: JsonObject): Promise<void> {
    if (this.closedReason) return Promise.resolve();
    if (message.method === 'notifications/cancelled') this.cancelledCalls = true;
    return new Promise((resolve) => {
      this.child.stdin.write(JSON.stringify(message) + '\n', () => resolve());
    });
  }

  onMessage(handler: (m: JsonObject) => void): void {
    this.messageHandler = handler;
  }
  onGarbage(handler: (t: string) => void): void {
    this.garbageHandler = handler;
  }
  onClose(handler: (reason: string, lost?: boolean) => void): void {
    if (this.closedReason) handler(this.closedReason);
    else this.closeHandlers.push(handler);
  }

  stderrCount(): number {
    return this.stderrTotal + (this.stderrPartial ? 1 : 0);
  }

  alive(): number {
    return performance.now() - this.startedAt;
  }

  /**
   * What the server's start cost until now (call it once it answered): the CPU time of its process
   * group (what it started with it) and the wall time from its spawn to its first line on stdout.
   */
  startCost(): { cpuMs: number; wallMs: number } | undefined {
    const cpuMs = this.child.pid === undefined ? undefined : groupsCpuMs(new Set([this.child.pid]));
    return cpuMs === undefined || this.firstLineAt === undefined
      ? undefined
      : { cpuMs, wallMs: this.firstLineAt - this.startedAt };
  }

  residentMb(): number | undefined {
    const kb = this.child.pid === undefined ? undefined : groupsResidentKb(new Set([this.child.pid]));
    return kb === undefined ? undefined : kb / 1024;
  }

  stderrTail(): string[] {
    const partial = this.stderrPartial ? [sanitizeLine(this.redact(this.stderrPartial))] : [];
    return [...this.stderrLines, ...partial].slice(-STDERR_TAIL_LINES);
  }

  /**
   * Ends the session's whole process group: its stdin closed (a server may end then), SIGTERM, then
   * SIGKILL once the grace period is over if anything of the group is still there — whether or not
   * the server itself has exited, since helpers that ignore SIGTERM outlive a server that obeys it.
   */
  async close(_options?: { terminate?: boolean }): Promise<void> {
    this.closing = true;
    const pgid = this.child.pid;
    const leaderRunning = this.child.exitCode === null && this.child.signalCode === null;
    if (leaderRunning || groupAlive(pgid)) {
      this.child.stdin.end();
      if (leaderRunning) {
        // The input's end reaches the server first (after any write still queued; bounded, as a
        // server that reads nothing never takes it); one sent a cancellation has a moment to end.
        await endsWithin(Promise.race([this.exited, finished(this.child.stdin).catch(() => {})]), GRACE_MS);
        if (this.cancelledCalls) await endsWithin(this.exited, EOF_GRACE_MS);
      }
      killGroup(this.child, 'SIGTERM');
      const deadline = performance.now() + GRACE_MS;
      const hardKill = setTimeout(() => killGroup(this.child, 'SIGKILL'), GRACE_MS);
      await this.exited;
      while (groupAlive(pgid) && performance.now() < deadline) await new Promise((done) => setTimeout(done, 25));
      clearTimeout(hardKill);
      if (groupAlive(pgid)) killGroup(this.child, 'SIGKILL');
    }
    this.child.stdout.destroy();
    this.child.stderr.destroy();
  }

  private markClosed(reason: string, lost = false): void {
    if (this.closedReason) return;
    this.closedReason = reason;
    for (const h of this.closeHandlers) h(reason, lost);
    this.closeHandlers = [];
  }

  private onStdout(chunk: string): void {
    if (this.cut) return;
    this.firstLineAt ??= performance.now();
    // Only the new chunk is searched for line ends: a huge line arrives in thousands of chunks.
    let start = 0;
    let newline: number;
    while ((newline = chunk.indexOf('\n', start)) >= 0) {
      const line = (this.stdoutBuffer + chunk.slice(start, newline)).replace(/\r$/, '');
      this.stdoutBuffer = '';
      start = newline + 1;
      if (line.length > this.limits.maxMessageBytes) return this.tooLarge(line);
      if (line.trim() === '') continue;
      const { value, problem } = parseMessage(line);
      if (problem)
        this.garbageHandler(problem === 'not JSON' ? this.redact(line) : `${problem}: ${clip(this.redact(line), 300)}`);
      if (value && typeof value === 'object' && !Array.isArray(value)) this.messageHandler(value as JsonObject);
      else if (!problem) this.garbageHandler(this.redact(line));
    }
    this.stdoutBuffer += chunk.slice(start);
    // A line still without its end: bounded, however long the server keeps writing.
    if (this.stdoutBuffer.length > this.limits.maxMessageBytes) this.tooLarge(this.stdoutBuffer);
  }

  private tooLarge(text: string): void {
    this.garbageHandler(`${TOO_LARGE}: ${clip(this.redact(text.slice(0, 4096)), 200)}`);
    this.stdoutBuffer = '';
    this.cut = true;
    this.markClosed(`the server sent a message larger than ${megabytes(this.limits.maxMessageBytes)} (--max-response)`);
    void this.close();
  }

  private onStderr(chunk: string): void {
    const parts = (this.stderrPartial + chunk).split('\n');
    this.stderrPartial = parts.pop() ?? '';
    if (this.stderrPartial.length > 4096) this.stderrPartial = this.stderrPartial.slice(0, 4096);
    for (const line of parts) {
      if (line.trim() === '') continue;
      this.stderrTotal++;
      this.stderrLines.push(sanitizeLine(this.redact(line)));
      if (this.stderrLines.length > STDERR_TAIL_LINES) this.stderrLines.shift();
    }
  }
}

function startFailure(cmd: StdioCommand, err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') {
    return cmd.cwd && !existsSync(cmd.cwd)
      ? `cannot start '${cmd.command}': the working directory '${cmd.cwd}' does not exist`
      : `cannot start '${cmd.command}': command not found (check the spelling and your PATH)`;
  }
  if (code === 'EACCES') return `cannot start '${cmd.command}': permission denied (is it executable?)`;
  return `cannot start '${cmd.command}': ${(err as Error)?.message ?? asText(err)}`;
}
