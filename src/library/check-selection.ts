// Which checks a run runs, in one place for every door (a server, a fleet, a plan, a lint): ours and
// the plugins' (loaded beforehand), --only and --skip, then the user's levels (`rules`: off leaves a
// check out of the run's work).
import { LIVE_CHECKS, QUALITY_PLUGIN } from '../../checks/index.js';
import { LINT_CHECKS } from '../../checks/lint-checks.js';
import { InputError } from '../core/input-error.js';
import { selectChecks } from '../core/select.js';
import type { LintCheck } from '../lint/check.js';
import type { LiveCheck } from '../run/check.js';
import { withLevels } from './check-levels.js';
import { checksOfPlugins, type PluginSpec } from './plugins.js';

/** What decides the checks of a run. */
export interface CheckChoice<Check> {
  /** The checks to choose from (default: every check of ours of the run's kind). */
  checks?: readonly Check[];
  /** Plugins, loaded (loadPlugins): their checks join ours. */
  plugins?: readonly PluginSpec[];
  /** The user's level of each check, by id: off, warn or error. */
  rules?: Readonly<Record<string, unknown>>;
  only?: string[];
  skip?: string[];
}

/** The plugins of a run: those loaded by default (the quality rules), then the user's. */
export const withDefaultPlugins = (plugins: readonly PluginSpec[] = []): PluginSpec[] => [QUALITY_PLUGIN, ...plugins];

/** Every check a run knows without a plugin of the user's: ours, then the default plugins' (in that order). */
export function defaultChecks(): { live: LiveCheck[]; lint: LintCheck[] } {
  const plugins = checksOfPlugins(withDefaultPlugins());
  return { live: [...LIVE_CHECKS, ...plugins.live], lint: [...LINT_CHECKS, ...plugins.lint] };
}

/** The live checks of a run. */
export function liveChecksOf(choice: CheckChoice<LiveCheck>): LiveCheck[] {
  const plugins = checksOfPlugins(withDefaultPlugins(choice.plugins));
  const all = [...(choice.checks ?? LIVE_CHECKS), ...plugins.live];
  const known = [...all, ...LINT_CHECKS, ...plugins.lint].map((c) => c.id);
  return leftToRun(withLevels(selectChecks(all, choice.only, choice.skip), choice.rules, known));
}

/** The lint checks of a run. */
export function lintChecksOf(choice: CheckChoice<LintCheck>): LintCheck[] {
  const plugins = checksOfPlugins(withDefaultPlugins(choice.plugins));
  const all = [...(choice.checks ?? LINT_CHECKS), ...plugins.lint];
  const known = [...all, ...LIVE_CHECKS, ...plugins.live].map((c) => c.id);
  return leftToRun(withLevels(selectChecks(all, choice.only, choice.skip), choice.rules, known));
}

/** The checks a run has once the user's levels took out those set to off: at least one. */
function leftToRun<T>(checks: T[]): T[] {
  if (!checks.length) throw new InputError('the rules set every check chosen to off: there is no check to run');
  return checks;
}
