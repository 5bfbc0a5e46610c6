// The lint of a folder as the CLI gives it with --format json: its exit code and its report.
import type { CheckReport } from '../../src/generated/report.js';
import { runCli } from '../helpers.js';

export async function lintJson(dir: string): Promise<{ code: number | null; report: CheckReport }> {
  const run = await runCli(['lint', '--format', 'json', dir]);
  return { code: run.code, report: JSON.parse(run.stdout) as CheckReport };
}
