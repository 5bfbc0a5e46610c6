import type { LintCheck } from '../lint/check.js';
import type { RunHooks } from '../core/hooks.js';
import type { CheckReport } from '../generated/report.js';
import { lintPaths } from '../lint/lint.js';
import { LIBRARY_SPELLING } from './server-options.js';
import { validateOptions } from './validate-options.js';
import { lintChecksOf } from './check-selection.js';
import type { RuleSetting } from './check-levels.js';
import { loadPlugins, type PluginSpec } from './plugins.js';
import { safeReport } from '../safety/output.js';
import { Redactor } from '../safety/redact.js';

export interface LintOptions {
  /** Where relative paths and globs are read from (default: this process's working directory). */
  cwd?: string;
  /** "Now", for the age of a Tool Card's tests (default: the clock). */
  now?: Date;
  /** The checks to choose from (default: every lint check, `LINT_CHECKS`). */
  checks?: readonly LintCheck[];
  /** Plugins (docs/plugins.md): module paths (relative to `cwd`), package names (resolved from it), or plugin objects. */
  plugins?: PluginSpec[];
  /** The level of each check by id, ours and the plugins' alike: off (not run), warn or error. */
  rules?: Record<string, RuleSetting>;
  /** Check ids or prefixes to run, or to leave out. */
  only?: string[];
  skip?: string[];
  /** The least score of what the model reads (0–100) that passes, as recorded in the report (`exitCodeFor` takes it). */
  minScore?: number;
  /** Told of progress (a progress line); never used to decide anything. */
  hooks?: Pick<RunHooks, 'onCheckStart'>;
}

/** Lints files, folders and globs offline; throws InputError for a path that does not exist. */
export async function lint(paths: string[], options: LintOptions = {}): Promise<CheckReport> {
  validateOptions(options, 'lint', LIBRARY_SPELLING);
  const plugins = await loadPlugins(options.plugins, options.cwd ?? process.cwd());
  const checks = lintChecksOf({ ...options, plugins });
  const report = await lintPaths(paths, {
    cwd: options.cwd ?? process.cwd(),
    now: options.now,
    checks,
    hooks: options.hooks,
  });
  if (options.minScore !== undefined) report.options = { ...report.options, minScore: options.minScore };
  return safeReport(report, Redactor.forRun());
}
