// The upstream server as a child process: JSON-RPC lines on its stdin and stdout, its stderr
// passed through to ours, its exit code reported.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { TargetUnavailableError } from '../transport/types.js';
import { LineReader } from './lines.js';

/** How long an upstream gets to exit by itself once its stdin is closed. */
const CLOSE_GRACE_MS = 2000;

export class ChildTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /**
   * Told once, when the upstream process ends: its exit code (or 1 when killed by a signal), and how it ended in words.
   */
  onexit?: (code: number, how: string) => void;
  /** Told when what is written to the upstream waits in memory, and when it is gone (back-pressure). */
  onCongested?: () => void;
  onDrained?: () => void;
  /** Told of a line from the upstream that was dropped (over the limit, or not JSON). */
  onDropped?: (why: 'too-large' | 'not-json', bytes: number) => void;
  private child?: ChildProcess;
  private congested = false;
  /** serve sent the SIGTERM that ended it (close(), after the grace). */
  private terminated = false;

  constructor(
    private readonly command: string,
    private readonly args: string[],
    private readonly options: { cwd?: string; env?: NodeJS.ProcessEnv; maxBytes?: number } = {},
  ) {}

  async start(): Promise<void> {
    const child = spawn(this.command, this.args, {
      cwd: this.options.cwd,
      env: this.options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    this.child = child;
    const reader = new LineReader(
      (message) => this.onmessage?.(message as JSONRPCMessage),
      this.options.maxBytes,
      (why, bytes) => this.onDropped?.(why, bytes),
    );
    child.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
    child.stdin.on('error', () => {}); // a closed pipe is reported by the exit
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (err: NodeJS.ErrnoException) =>
        reject(
          new TargetUnavailableError(
            err.code === 'ENOENT'
              ? `cannot start the upstream server '${this.command}': command not found (check the spelling and your PATH)`
              : `cannot start the upstream server '${this.command}': ${err.message}`,
          ),
        ),
      );
    });
    child.once('exit', (code, signal) => {
      // Ended by serve itself (its stdin closed, then SIGTERM after the grace: a server slow to start
      // on a busy machine, or one that ignores its stdin): the end serve asked for, not a failure.
      if (signal === 'SIGTERM' && this.terminated)
        this.onexit?.(0, 'was ended by serve (SIGTERM after its stdin closed)');
      else this.onexit?.(code ?? (signal ? 1 : 0), signal ? `was killed by ${signal}` : `exited with code ${code}`);
      this.onclose?.();
    });
  }

  /** Reading the upstream pauses while what goes to the client waits (back-pressure). */
  pauseReading(): void {
    this.child?.stdout?.pause();
  }

  resumeReading(): void {
    this.child?.stdout?.resume();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || stdin.write(`${JSON.stringify(message)}\n`) || this.congested) return;
    this.congested = true;
    this.onCongested?.();
    stdin.once('drain', () => {
      this.congested = false;
      this.onDrained?.();
    });
  }

  /** As an MCP client ends a stdio server: its stdin closed, then SIGTERM if it has not exited in time. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.stdin?.end();
    setTimeout(() => {
      this.terminated = true;
      child.kill();
    }, CLOSE_GRACE_MS).unref();
  }
}
