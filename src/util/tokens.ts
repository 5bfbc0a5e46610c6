import { onSideThread, preloadWhere } from './side-thread.js';
import { hasKeptCounts, keepCount, keptCount } from './token-cache.js';

/**
 * Token counts with a real BPE tokenizer: OpenAI's o200k_base (GPT-4o family), from
 * gpt-tokenizer. Its tables take ~0.15–0.2 s of CPU to load, on first use. A live run over HTTP
 * counts in its side thread (src/util/side-thread.ts), started while it waits for the server;
 * stdio, lint and init count on the calling thread.
 */
export const TOKEN_ENCODING = 'o200k_base';

let counter: Promise<(text: string) => number> | undefined;

export function tokenCounter(): Promise<(text: string) => number> {
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then(
    ({ countTokens }) =>
      (text: string) =>
        countTokens(text),
  );
  return counter;
}

/** Token counts of many texts, on this thread (the side thread's answer to a 'tokens' job). */
export async function countTokensHere(texts: string[]): Promise<number[]> {
  const count = await tokenCounter();
  return texts.map((text) => count(text));
}

/**
 * Counts already made in this process, by text: checks count the same texts (the listed tools for
 * mcp-tool-budget and pd-token-savings, in each protocol era), and a count never changes. Bounded,
 * so that a fleet of large servers does not keep every text it ever counted.
 */
const counted = new Map<string, number>();
const CACHED_TEXTS = 20_000;

/**
 * Token counts of many texts: in the side thread once it was started, else on this one; each distinct text counted
 * once.
 */
export async function countTokensOf(texts: string[]): Promise<number[]> {
  const fresh = new Map<string, number>();
  const missing: string[] = [];
  for (const text of new Set(texts)) {
    if (counted.has(text)) continue;
    const kept = keptCount(text);
    if (kept === undefined) missing.push(text);
    else fresh.set(text, kept);
  }
  if (missing.length) {
    const counts = await onSideThread({ kind: 'tokens', texts: missing }, () => countTokensHere(missing));
    missing.forEach((text, i) => {
      fresh.set(text, counts[i]);
      keepCount(text, counts[i]);
    });
  }
  for (const [text, count] of fresh) if (counted.size < CACHED_TEXTS) counted.set(text, count);
  return texts.map((text) => counted.get(text) ?? fresh.get(text)!);
}

/**
 * Loads the tokenizer where it will count: in the side thread (started here) when asked and
 * possible, else on this thread. Not where counts are kept between runs (src/util/token-cache.ts):
 * there a run of an unchanged server needs no tokenizer, and one that does loads it when it counts.
 */
export function preloadTokenizer(inThread: boolean): Promise<unknown> {
  if (hasKeptCounts()) return Promise.resolve();
  return preloadWhere(inThread, { kind: 'load-tokenizer' }, tokenCounter);
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
