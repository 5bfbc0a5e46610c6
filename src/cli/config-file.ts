import type { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { attributeOf, DEFAULT_CONFIG, OPTIONS } from '../library/option-table.js';
import { ENV_REFERENCE } from '../library/server-options.js';
import { UsageError } from './usage-error.js';

/**
 * Fills every option the command line left unset from the config file (--config, or
 * mcp-pd-check.config.json in the working directory), by the option table's config keys. Returns
 * the server command from the file.
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
  for (const spec of OPTIONS.filter((o) => o.config !== undefined && o.config in config)) {
    const attribute = attributeOf(spec);
    if (!command.options.some((o) => o.attributeName() === attribute)) continue; // e.g. url for lint
    if (command.getOptionValueSource(attribute) === 'cli') continue;
    const raw = config[spec.config!];
    const value = spec.fromConfig ? spec.fromConfig(raw, path) : spec.path ? path(raw as string) : raw;
    command.setOptionValueWithSource(attribute, value, 'config');
  }
  return ((config.command as string[] | undefined) ?? []).map((word) => withEnvironment(word, file));
}

/**
 * `$VAR` and `${VAR}` in a config's command, read from the environment: how a committed config
 * passes a server its key without holding it (init writes `--api-key ${API_KEY}`).
 */
function withEnvironment(word: string, file: string): string {
  return word.replace(ENV_REFERENCE, (_m, braced?: string, bare?: string) => {
    const key = (braced ?? bare)!;
    const value = process.env[key];
    if (value === undefined) throw new UsageError(`config ${file}: the server command reads $${key}, which is not set in this environment (set it where the check runs; in CI, as a secret)`);
    return value;
  });
}
