/**
 * Token counts with a real BPE tokenizer: OpenAI's o200k_base (GPT-4o family), from
 * gpt-tokenizer. Its tables take ~0.15 s of CPU to load, so they load on first use only (a live
 * run starts loading them while it waits for the server). Measured: loading them in a worker
 * thread instead costs ~0.1 s more CPU, and on a 2-core machine the run got slower, not faster.
 */
export const TOKEN_ENCODING = 'o200k_base';

let counter: Promise<(text: string) => number> | undefined;

export function tokenCounter(): Promise<(text: string) => number> {
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then(({ countTokens }) => (text: string) => countTokens(text));
  return counter;
}

/** Token counts of many texts. */
export async function countTokensOf(texts: string[]): Promise<number[]> {
  const count = await tokenCounter();
  return texts.map((text) => count(text));
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

