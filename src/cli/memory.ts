import { createRequire } from 'node:module';

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
    // Loaded here: node:v8 costs ~2 ms of every start, and most runs never get here.
    const load = createRequire(import.meta.url);
    (load('node:v8') as typeof import('node:v8')).setFlagsFromString('--expose-gc');
    collect = (load('node:vm') as typeof import('node:vm')).runInNewContext('gc') as () => void;
  }
  collect();
}
