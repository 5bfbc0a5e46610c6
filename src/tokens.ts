/**
 * Token counts with a real BPE tokenizer: OpenAI's o200k_base (GPT-4o family), from
 * gpt-tokenizer. Its tables take ~0.2 s to load, so they load on first use only.
 */
export const TOKEN_ENCODING = 'o200k_base';

let counter: ((text: string) => number) | undefined;

export async function tokenCounter(): Promise<(text: string) => number> {
  if (!counter) {
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    counter = (text) => countTokens(text);
  }
  return counter;
}

/** The first sentence of a description (at most 200 characters): what a minimal tools/list keeps. */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = /[.!?](?=\s|$)/.exec(flat);
  const sentence = end ? flat.slice(0, end.index + 1) : flat;
  return sentence.length > 200 ? `${sentence.slice(0, 199)}…` : sentence;
}

/**
 * The tools/list entry a progressive-disclosure server would list for a tool: its name, the first
 * sentence of its description and an open object schema (§3.1). Used to estimate the saving.
 */
export function minimalEntry(tool: Record<string, unknown>): Record<string, unknown> {
  const description = typeof tool.description === 'string' ? firstSentence(tool.description) : '';
  return { name: tool.name, description, inputSchema: { type: 'object', additionalProperties: true } };
}

/** What one tools/list entry costs in every prompt. */
export function entryTokens(entry: unknown, count: (text: string) => number): number {
  return count(JSON.stringify(entry));
}
