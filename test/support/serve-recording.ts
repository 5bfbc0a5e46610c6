// `serve` in front of the recording upstream (test/support/recording-upstream), shared by the tests of
// serve against hostile clients, crossed clients, its bounds and failing upstreams: the upstream's log
// of what it was asked, serve over stdio spoken to line by line, and serve --listen.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, serveListening, tempDir, type RunningServer } from '../helpers.js';

export const UPSTREAM = join(ROOT, 'dist', 'test', 'support', 'recording-upstream.js');
export const RESOURCE = 'resource:///tool_descriptions';
export const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };

/** A recording upstream's log: what it was asked to do. */
export function logFile(): { path: string; entries(): Array<Record<string, unknown>> } {
  const path = join(tempDir(), 'upstream.log');
  return {
    path,
    entries: () =>
      existsSync(path)
        ? readFileSync(path, 'utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Record<string, unknown>)
        : [],
  };
}

/** serve over stdio in front of the recording upstream, spoken to line by line. */
export class StdioServe {
  readonly child: ChildProcessWithoutNullStreams;
  private buffer = '';
  private readonly received: Array<Record<string, unknown>> = [];
  private readonly waiting: Array<() => void> = [];
  stderr = '';

  constructor(env: Record<string, string>, args: string[] = []) {
    this.child = spawn(process.execPath, [CLI, 'serve', ...args, '--', process.execPath, UPSTREAM], {
      env: { ...process.env, ...env },
    });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      let newline: number;
      while ((newline = this.buffer.indexOf('\n')) >= 0) {
        this.received.push(JSON.parse(this.buffer.slice(0, newline)) as Record<string, unknown>);
        this.buffer = this.buffer.slice(newline + 1);
        for (const w of this.waiting.splice(0)) w();
      }
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
  }

  write(text: string | Buffer): void {
    this.child.stdin.write(text);
  }

  send(message: unknown): void {
    this.write(`${JSON.stringify(message)}\n`);
  }

  /** The first message received (from now on or before) that `match` accepts; a hang guard, not a timing test. */
  async next(match: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const found = this.received.find(match);
      if (found) {
        this.received.splice(this.received.indexOf(found), 1);
        return found;
      }
      if (Date.now() > deadline) throw new Error(`no such message; got ${JSON.stringify(this.received).slice(0, 400)}`);
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  answerTo(id: unknown): Promise<Record<string, unknown>> {
    return this.next((m) => m.id === id && m.method === undefined);
  }

  async open(): Promise<void> {
    this.send({ jsonrpc: '2.0', id: 'i', method: 'initialize', params: INIT });
    await this.answerTo('i');
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.kill();
    });
  }
}

export async function listening(env: Record<string, string>, args: string[] = []): Promise<RunningServer> {
  return serveListening([...args, '--', process.execPath, UPSTREAM], env);
}
