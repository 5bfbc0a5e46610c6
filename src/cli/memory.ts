import { createRequire } from 'node:module';
import type * as V8 from 'node:v8';
import type * as Vm from 'node:vm';

/** Past this much heap, a full collection runs between checks. */
const HEAP_LIMIT = 96 * 1024 * 1024;
let collect: (() => void) | undefined;
/** node:v8, loaded on the first check's end (it costs ~1–2 ms of a start that never gets here: --version, lint). */
let v8: typeof V8 | undefined;

/**
 * A run against a server with thousands of tools makes much short-lived garbage (messages of
 * megabytes, parsed and copied); V8 lets the heap grow far beyond what is live before it collects,
 * and peak memory with it (1.2 GB for 10,000 tools, of which ~150 MB live). Between checks, when
 * the heap is large, the CLI asks for a full collection: cheap there, and it keeps peak memory
 * near what is really in use. The library leaves the embedding process's GC alone.
 */
export function collectIfLarge(): void {
  // V8's heap statistics, not process.memoryUsage(): that one also reads the RSS from /proc, and
  // called after each check it cost a run over HTTP ~10 ms of its thread.
  v8 ??= createRequire(import.meta.url)('node:v8') as typeof V8;
  if (v8.getHeapStatistics().used_heap_size < HEAP_LIMIT) return;
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    collect = (createRequire(import.meta.url)('node:vm') as typeof Vm).runInNewContext('gc') as () => void;
  }
  collect();
}
