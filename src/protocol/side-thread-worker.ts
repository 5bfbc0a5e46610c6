// The run's side thread (src/util/side-thread.ts): the tokenizer's tables and the SDKs' schemas
// load here, beside the run, and it answers the jobs it is sent. It lives above src/util, which
// knows nothing of MCP's eras and schemas.
import { parentPort } from 'node:worker_threads';
import { resultIssues, schemasOf } from './wire-schemas.js';
import type { SideJob } from '../util/side-thread.js';
import { countTokensHere, tokenCounter } from '../util/tokens.js';
import type { Era } from '../transport/era.js';

async function answer(job: SideJob): Promise<unknown> {
  switch (job.kind) {
    case 'load-tokenizer':
      return void (await tokenCounter());
    case 'tokens':
      return countTokensHere(job.texts);
    case 'load-schemas':
      return void (await schemasOf(job.era as Era));
    case 'result-issues':
      return resultIssues(job.era as Era, job.results);
  }
}

parentPort?.on('message', ({ id, job }: { id: number; job: SideJob }) => {
  answer(job).then(
    (value) => parentPort!.postMessage({ id, value }),
    (err: unknown) => parentPort!.postMessage({ id, error: err instanceof Error ? err.message : String(err) }),
  );
});
