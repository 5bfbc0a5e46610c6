import type { LintCheck } from './check.js';
import type { CheckReport } from '../generated/report.js';
import { buildReport } from '../core/build-report.js';
import { executeCheck } from '../core/execute.js';
import type { RunHooks } from '../core/hooks.js';
import { LintContext, type LintOptions } from './context.js';
import { readLintFile, type LintFile } from './files.js';
import { mapLimit } from '../util/concurrency.js';
import { collectPaths } from './paths.js';

/** Files read at once: enough to keep the disk busy, few enough never to run out of descriptors. */
const READ_CONCURRENCY = 32;

/**
 * The core of `mcp-pd-check lint`, with no printing and no exit codes: read every file (a broken
 * one is a finding, never a stop), run the lint checks, return the report. Throws InputError for
 * a path that does not exist.
 */
export async function lintPaths(
  paths: string[],
  options: { cwd: string; now?: Date; checks: readonly LintCheck[]; hooks?: RunHooks },
): Promise<CheckReport> {
  const startedAt = new Date();
  const t0 = performance.now();
  const files = await mapLimit(await collectPaths(paths, options.cwd), READ_CONCURRENCY, (p) =>
    readLintFile(p, options.cwd),
  );
  const lintOptions: LintOptions = { now: options.now ?? new Date() };
  const checks = options.checks;
  const results = [];
  for (const [i, check] of checks.entries()) {
    options.hooks?.onCheckStart?.(check, i, checks.length);
    results.push(await executeCheck(check, (messages, level) => new LintContext(files, lintOptions, messages, level)));
  }
  return buildReport({
    target: { kind: 'files', paths, files: files.length },
    startedAt,
    durationMs: performance.now() - t0,
    results,
    tools: toolsOf(files),
  });
}

/** The tools the files describe: each tool description's name, each entry of a saved tools/list. */
function toolsOf(files: readonly LintFile[]): string[] {
  const names = new Set<string>();
  for (const file of files) {
    const value = file.source?.parsed ? (file.source.value as Record<string, unknown>) : undefined;
    if (!value) continue;
    if (file.kind === 'tool-description' && typeof value.name === 'string') names.add(value.name);
    if (file.kind === 'tools-list' && Array.isArray(value.tools))
      for (const entry of value.tools as unknown[]) {
        const name = (entry as { name?: unknown } | null)?.name;
        if (typeof name === 'string') names.add(name);
      }
  }
  return [...names];
}
