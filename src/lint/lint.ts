import type { LintCheck } from '../core/check.js';
import type { CheckReport } from '../generated/report.js';
import { buildReport } from '../core/build-report.js';
import { executeCheck, type RunHooks } from '../core/runner.js';
import { LintContext, type LintOptions } from './context.js';
import { readLintFile } from './files.js';
import { collectPaths } from './paths.js';

/** Files read at once: enough to keep the disk busy, few enough never to run out of descriptors. */
const READ_CONCURRENCY = 32;

/** `items.map(work)` with at most `limit` at a time, in order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}


/**
 * The core of `mcp-pd-check lint`, with no printing and no exit codes: read every file (a broken
 * one is a finding, never a stop), run the lint checks, return the report. Throws InputError for
 * a path that does not exist.
 */
export async function lintPaths(paths: string[], options: { cwd: string; now?: Date; checks: readonly LintCheck[]; hooks?: RunHooks }): Promise<CheckReport> {
  const startedAt = new Date();
  const t0 = performance.now();
  const files = await mapLimit(await collectPaths(paths, options.cwd), READ_CONCURRENCY, (p) => readLintFile(p, options.cwd));
  const lintOptions: LintOptions = { now: options.now ?? new Date() };
  const checks = options.checks;
  const results = [];
  for (const [i, check] of checks.entries()) {
    options.hooks?.onCheckStart?.(check, i, checks.length);
    results.push(await executeCheck(check, (messages, level) => new LintContext(files, lintOptions, messages, level)));
  }
  return buildReport({ target: { kind: 'files', paths }, startedAt, durationMs: performance.now() - t0, results });
}
