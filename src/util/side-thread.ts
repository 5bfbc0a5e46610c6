// A live run over HTTP has a thread of its own for the heavy work that feeds no request: loading
// the tokenizer's tables and the SDKs' schemas, counting tokens, checking results against those
// schemas (src/protocol/side-thread-worker.ts). There the server is one process and the checker's
// own thread is what the run waits for: the tables cost it ~0.18 s (the run ~0.11 s shorter in
// the thread), the schemas ~0.09 s. Over stdio, where the servers' processes keep the cores busy,
// a thread made runs longer: stdio, lint and init do it all on the calling thread.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';

/**
 * What the side thread is asked to do; each job has the same answer on the calling thread. (An era
 * is a protocol version, a result one of a request of `method`: src/protocol/wire-schemas.ts.)
 */
export type SideJob =
  | { kind: 'load-tokenizer' }
  | { kind: 'tokens'; texts: string[] }
  | { kind: 'load-schemas'; era: string }
  | { kind: 'result-issues'; era: string; results: Array<{ method: string; result: unknown }> };

/**
 * The worker's file (the CLI's bundle has it beside itself: src/build/bundle-cli.mjs rewrites the
 * path; the action's one-file bundle has none and does the work on its own thread).
 */
const WORKER_FILE = new URL('../protocol/side-thread-worker.js', import.meta.url);

class SideThread {
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  private next = 0;
  /** Why it can do no more (it failed to start, or died). */
  private dead: Error | undefined;

  constructor(private readonly worker: Worker) {
    worker.on('message', ({ id, value, error }: { id: number; value?: unknown; error?: string }) => {
      const waiter = this.waiting.get(id);
      if (error !== undefined) waiter?.reject(new Error(error));
      else waiter?.resolve(value);
      this.settled(id);
    });
    worker.on('error', (err) => this.failAll(err));
    worker.on('exit', (code) => this.failAll(new Error(`the side thread exited (${code})`)));
    // It keeps the process alive only while answers are awaited. (After the listeners: a 'message'
    // listener added later refs it again.)
    worker.unref();
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  ask(job: SideJob): Promise<unknown> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, job });
    });
  }

  private settled(id: number): void {
    this.waiting.delete(id);
    if (!this.waiting.size) this.worker.unref();
  }

  private failAll(err: Error): void {
    this.dead ??= err;
    for (const [id, { reject }] of this.waiting) {
      reject(err);
      this.settled(id);
    }
  }
}

let thread: SideThread | undefined;
let starting: Promise<boolean> | undefined;

/** Starts the side thread (once); false where its file is missing (the action's one-file bundle). */
export function startSideThread(): Promise<boolean> {
  starting ??= (async () => {
    if (!existsSync(fileURLToPath(WORKER_FILE))) return false;
    const { Worker } = await import('node:worker_threads');
    // No flags of this process (loader hooks of a test runner would keep this one alive through the thread).
    thread = new SideThread(new Worker(WORKER_FILE, { execArgv: [] }));
    return true;
  })();
  return starting;
}

/** Whether jobs go to the side thread (it started, and has not failed). */
export function inSideThread(): boolean {
  return thread !== undefined;
}

/**
 * A preload where the work will be done: in the side thread (started here) when `inThread` and it
 * can start, else by `here` on this thread.
 */
export async function preloadWhere(inThread: boolean, job: SideJob, here: () => Promise<unknown>): Promise<unknown> {
  return inThread && (await startSideThread()) ? onSideThread(job, here) : here();
}

/**
 * A job done in the side thread when it runs, else (or when it fails: the same answer, here) by
 * `here` on this thread.
 */
export async function onSideThread<T>(job: SideJob, here: () => Promise<T>): Promise<T> {
  if (thread) {
    try {
      return (await thread.ask(job)) as T;
    } catch {
      // A thread that died is not asked again; a job that failed there is tried here.
      if (!thread.alive) thread = undefined;
    }
  }
  return here();
}
