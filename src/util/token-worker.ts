// The tokenizer's thread (src/util/tokens.ts): its tables load here, beside the run, and it counts
// the texts it is sent.
import { parentPort } from 'node:worker_threads';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

parentPort?.on('message', ({ id, texts }: { id: number; texts: string[] }) => {
  parentPort!.postMessage({ id, counts: texts.map((text) => countTokens(text)) });
});
