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
