import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Past this much heap, a full collection runs between checks. */
const HEAP_LIMIT = 96 * 1024 * 1024;
let collect: (() => void) | undefined;

/**
 * A run against a server with thousands of tools makes much short-lived garbage (messages of
 * megabytes, parsed and copied); V8 lets the heap grow far beyond what is live before it collects,
 * and peak memory with it (1.2 GB for 10,000 tools, of which ~150 MB live). Between checks, when
 * the heap is large, the CLI asks for a full collection: cheap there, and it keeps peak memory
 * near what is really in use. The library leaves the embedding process's GC alone.
 */
export function collectIfLarge(): void {
  if (process.memoryUsage().heapUsed < HEAP_LIMIT) return;
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}
