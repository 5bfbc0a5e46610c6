// Which checks a run runs, in one place for every door (a server, a fleet, a plan, a lint): ours and
// the plugins' (loaded beforehand), the user's levels (`rules`: off leaves a check out of the run's
// work), then --only and --skip.
import { LIVE_CHECKS } from '../../checks/index.js';
import { LINT_CHECKS } from '../../checks/lint-checks.js';
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

/** The live checks of a run. */
export function liveChecksOf(choice: CheckChoice<LiveCheck>): LiveCheck[] {
  const plugins = checksOfPlugins(choice.plugins);
  const all = [...(choice.checks ?? LIVE_CHECKS), ...plugins.live];
  const known = [...all, ...LINT_CHECKS, ...plugins.lint].map((c) => c.id);
  return selectChecks(withLevels(all, choice.rules, known), choice.only, choice.skip);
}

/** The lint checks of a run. */
export function lintChecksOf(choice: CheckChoice<LintCheck>): LintCheck[] {
  const plugins = checksOfPlugins(choice.plugins);
  const all = [...(choice.checks ?? LINT_CHECKS), ...plugins.lint];
  const known = [...all, ...LIVE_CHECKS, ...plugins.live].map((c) => c.id);
  return selectChecks(withLevels(all, choice.rules, known), choice.only, choice.skip);
}
