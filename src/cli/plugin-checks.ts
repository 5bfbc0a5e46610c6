// The checks `explain` and `list-checks` know: ours, and those of the plugins given with --plugin or
// named in the config file (--config, or mcp-pd-check.config.json here), as a run would load them.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { LINT_CHECKS, LIVE_CHECKS } from '../../checks/index.js';
import { parseJsonc } from '../core/jsonc.js';
import type { LintCheck } from '../lint/check.js';
import { DEFAULT_CONFIG } from '../library/option-table.js';
import { checksOfPlugins, loadPlugins } from '../library/plugins.js';
import { withDefaultPlugins } from '../library/check-selection.js';
import type { LiveCheck } from '../run/check.js';
import { UsageError } from './usage-error.js';

/** Every check, ours first, then each plugin's. */
export async function knownChecks(flags: {
  plugin?: string[];
  config?: string;
}): Promise<Array<LiveCheck | LintCheck>> {
  const specs = [...pluginsOfConfig(flags.config), ...(flags.plugin ?? [])];
  const plugins = checksOfPlugins(withDefaultPlugins(await loadPlugins(specs)));
  return [...LIVE_CHECKS, ...LINT_CHECKS, ...plugins.live, ...plugins.lint];
}

/** The plugins a config file names, paths made relative to the file. */
function pluginsOfConfig(explicit: string | undefined): string[] {
  const file = explicit ?? (existsSync(DEFAULT_CONFIG) ? DEFAULT_CONFIG : undefined);
  if (!file) return [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(
      `--config '${file}' cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  const config = parseJsonc(text, `config ${file}`) as { plugins?: unknown };
  if (config.plugins === undefined) return [];
  if (!Array.isArray(config.plugins) || !config.plugins.every((p) => typeof p === 'string')) {
    throw new UsageError(`config ${file}: 'plugins' must be a list of paths or package names`);
  }
  return config.plugins.map((p) => (p.startsWith('.') && !isAbsolute(p) ? join(dirname(file), p) : p));
}
