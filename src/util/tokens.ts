import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';

/**
 * Token counts with a real BPE tokenizer: OpenAI's o200k_base (GPT-4o family), from
 * gpt-tokenizer. Its tables take ~0.15–0.2 s of CPU to load, on first use. A live run over HTTP
 * counts in a thread of its own, started while it waits for the server (src/util/token-worker.ts):
 * there the checker's own thread is what the run waits for, and the tables cost it ~0.18 s
 * (measured: the run 0.11 s shorter). Over stdio, where the servers' processes keep the cores
 * busy, the thread made the run longer: it, lint and init count on the calling thread.
 */
export const TOKEN_ENCODING = 'o200k_base';

let counter: Promise<(text: string) => number> | undefined;

export function tokenCounter(): Promise<(text: string) => number> {
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then(({ countTokens }) => (text: string) => countTokens(text));
  return counter;
}

/** Token counts of many texts: in the tokenizer's thread once it was started, else on this one. */
export async function countTokensOf(texts: string[]): Promise<number[]> {
  if (thread) {
    try {
      return await thread.count(texts);
    } catch {
      // A thread that could not start or died: the same counts, here.
      thread = undefined;
    }
  }
  const count = await tokenCounter();
  return texts.map((text) => count(text));
}

/** The worker's file beside this module (a bundle that has none counts on its own thread). */
const WORKER_FILE = new URL('./token-worker.js', import.meta.url);

class TokenThread {
  private readonly waiting = new Map<number, { resolve: (counts: number[]) => void; reject: (err: Error) => void }>();
  private next = 0;
  /** Why it can count no more (it failed to start, or died). */
  private dead: Error | undefined;

  constructor(private readonly worker: Worker) {
    worker.on('message', ({ id, counts }: { id: number; counts: number[] }) => {
      this.waiting.get(id)?.resolve(counts);
      this.settled(id);
    });
    worker.on('error', (err) => this.failAll(err));
    worker.on('exit', (code) => this.failAll(new Error(`the tokenizer's thread exited (${code})`)));
    // It keeps the process alive only while counts are awaited. (After the listeners: a 'message'
    // listener added later refs it again.)
    worker.unref();
  }

  count(texts: string[]): Promise<number[]> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, texts });
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

let thread: TokenThread | undefined;
let starting: Promise<unknown> | undefined;

/** Whether counts go to the tokenizer's thread (it started, and has not failed). */
export function countsInThread(): boolean {
  return thread !== undefined;
}

/**
 * Starts the tokenizer's thread (once), so that its tables load beside the run; counting falls
 * back to this thread where the worker's file is missing or the thread fails.
 */
export function startTokenThread(): Promise<unknown> {
  starting ??= (async () => {
    if (!existsSync(fileURLToPath(WORKER_FILE))) return tokenCounter();
    const { Worker } = await import('node:worker_threads');
    // No flags of this process (loader hooks of a test runner would keep this one alive through the thread).
    thread = new TokenThread(new Worker(WORKER_FILE, { execArgv: [] }));
    return undefined;
  })();
  return starting;
}

/** The first sentence of a description (at most 200 characters): what a minimal tools/list keeps. */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  // A full stop before a space or the end, or a CJK full stop (。！？), which needs no space.
  const end = /[.!?](?=\s|$)|[。！？]/.exec(flat);
  const sentence = end ? flat.slice(0, end.index + 1) : flat;
  return sentence.length > 200 ? `${sentence.slice(0, 199)}…` : sentence;
}

/**
 * The saving progressive disclosure makes, as a share (0–1): what tools/list costs in every prompt
 * against what the full descriptions would cost listed in its place. One definition, for
 * pd-token-savings and init's summary.
 */
export function tokenSaving(listed: number, full: number): number {
  return full > 0 ? 1 - listed / full : 0;
}

