import { readFileSync, writeFileSync } from 'node:fs';
import type { Baseline } from '../generated/baseline.js';
import type { CheckReport } from '../generated/report.js';
import { TOOL_NAME } from '../util/version.js';
import { DEFAULT_BASELINE, type OutputFlags } from './options.js';
import { checkOutputPaths, type CliOutput } from './output.js';
import { UsageError } from './usage-error.js';

/** Reads --baseline before the run, so that a bad file costs nothing; undefined when not used. */
export async function loadBaseline(flags: OutputFlags): Promise<Baseline | undefined> {
  if (!flags.baseline || flags.updateBaseline) {
    if (flags.updateBaseline) checkOutputPaths({ output: flags.baseline ?? DEFAULT_BASELINE, report: [] });
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(flags.baseline, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `--baseline '${flags.baseline}' does not exist; create it with --update-baseline`
        : `--baseline '${flags.baseline}' is not valid JSON (${(err as Error).message})`,
    );
  }
  const [{ BASELINE_VERSION }, { schemaProblemText }] = await Promise.all([
    import('../core/baseline.js'),
    import('../rules/schema-problems.js'),
  ]);
  const version = (parsed as { baselineVersion?: unknown } | null)?.baselineVersion;
  if (typeof version === 'number' && version < BASELINE_VERSION) {
    throw new UsageError(
      `--baseline '${flags.baseline}' is a version ${version} baseline, whose fingerprints hash message text; this checker fingerprints codes and locations: rewrite it once with --update-baseline`,
    );
  }
  const problems = schemaProblemText('baseline', parsed);
  if (problems.length)
    throw new UsageError(`--baseline '${flags.baseline}' is not a baseline file: ${problems.join('; ')}`);
  return parsed as Baseline;
}

/** Applies or rewrites the baseline after a run. */
export async function gate(
  report: CheckReport,
  flags: OutputFlags,
  baseline: Baseline | undefined,
  out: CliOutput,
): Promise<CheckReport> {
  const { applyBaseline, baselineFrom } = await import('../core/baseline.js');
  if (flags.updateBaseline) {
    const file = flags.baseline ?? DEFAULT_BASELINE;
    const fresh = baselineFrom(report);
    writeFileSync(file, `${JSON.stringify(fresh, null, 2)}\n`);
    out.say(`${TOOL_NAME}: baseline ${file} written: ${fresh.accepted.length} accepted findings\n`);
    return applyBaseline(report, fresh, file);
  }
  return baseline ? applyBaseline(report, baseline, flags.baseline!) : report;
}
