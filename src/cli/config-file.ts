import type { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { DEFAULT_CONFIG } from './options.js';
import { UsageError } from './usage-error.js';

/** Config keys whose values are paths, read relative to the config file. */
const PATH_KEYS = new Set(['cwd', 'cards', 'output', 'baseline']);

/** Config keys → option names, where they differ. */
const CONFIG_TO_OPTION: Record<string, string> = { timeoutMs: 'timeout', startupTimeoutMs: 'startupTimeout', reports: 'report', headers: 'header' };

/**
 * Fills every option the command line left at its default from the config file (--config, or
 * mcp-pd-check.config.json in the working directory). Returns the server command from the file.
 */
export async function applyConfig(command: Command, explicit: string | undefined): Promise<string[]> {
  const file = explicit ?? (existsSync(DEFAULT_CONFIG) ? DEFAULT_CONFIG : undefined);
  if (!file) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `--config '${file}' does not exist` : `config ${file} is not valid JSON (${(err as Error).message})`);
  }
  const { schemaProblemText } = await import('../rules/schema-problems.js');
  const problems = schemaProblemText('config', parsed);
  if (problems.length) throw new UsageError(`config ${file}: ${problems.join('; ')} (see schemas/config.schema.json)`);
  const config = parsed as Record<string, unknown>;
  // Paths in the file are relative to the file (as in tsconfig or .eslintrc), so that
  // `--config server/mcp-pd-check.config.json` means what it means inside server/.
  const base = dirname(file);
  const path = (p: string) => (isAbsolute(p) ? p : join(base, p));
  for (const [key, raw] of Object.entries(config)) {
    if (key === '$schema' || key === 'command') continue;
    const option = CONFIG_TO_OPTION[key] ?? key;
    if (!command.options.some((o) => o.attributeName() === option)) continue; // e.g. url for lint
    if (command.getOptionValueSource(option) === 'cli') continue;
    const value = key === 'env' ? Object.entries(raw as Record<string, string>).map(([k, v]) => `${k}=${v}`)
      : key === 'headers' ? Object.entries(raw as Record<string, string>).map(([k, v]) => `${k}: ${v}`)
      : key === 'reports' ? Object.entries(raw as Record<string, string>).map(([k, v]) => `${k}=${path(v)}`)
      : PATH_KEYS.has(key) ? path(raw as string)
      : raw;
    command.setOptionValueWithSource(option, value, 'config');
  }
  return (config.command as string[] | undefined) ?? [];
}
