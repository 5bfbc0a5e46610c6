import type { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { attributeOf, DEFAULT_CONFIG, OPTIONS } from '../library/option-table.js';
import { ENV_REFERENCE } from '../library/server-options.js';
import { UsageError } from './usage-error.js';
import { closest } from '../util/distance.js';
import { parseJsonc } from '../core/jsonc.js';

/**
 * Fills every option the command line left unset from the config file (--config, or
 * mcp-pd-check.config.json in the working directory), by the option table's config keys. Returns
 * the server command from the file.
 */
export async function applyConfig(command: Command, explicit: string | undefined): Promise<string[]> {
  const file = explicit ?? (existsSync(DEFAULT_CONFIG) ? DEFAULT_CONFIG : undefined);
  if (!file) return [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `--config '${file}' does not exist: give the path of a config file, such as the mcp-pd-check.config.json that init writes`
        : `config ${file} cannot be read (${code ?? (err as Error).message})`,
    );
  }
  // JSONC, as the server configs it sits beside: comments and trailing commas are fine.
  const parsed = parseJsonc(text, `config ${file}`);
  const { schemaProblemText } = await import('../rules/schema-problems.js');
  // The schema is named once, with its file, not after every mistake.
  const problems = schemaProblemText('config', parsed)
    .map((p) => p.replace(/ \(the config schema\)\.?$/, ''))
    .map(withSuggestion);
  if (problems.length === 1) throw new UsageError(`config ${file}: ${problems[0]} (see schemas/config.schema.json)`);
  // Several mistakes: each on a line of its own, so that each can be read and fixed.
  if (problems.length)
    throw new UsageError(
      `config ${file} has ${problems.length} mistakes (see schemas/config.schema.json):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  const config = parsed as Record<string, unknown>;
  // Paths in the file are relative to the file (as in tsconfig or .eslintrc), so that
  // `--config server/mcp-pd-check.config.json` means what it means inside server/.
  const base = dirname(file);
  const path = (p: string) => (isAbsolute(p) ? p : join(base, p));
  for (const spec of OPTIONS.filter((o) => o.config !== undefined && o.config in config)) {
    const attribute = attributeOf(spec);
    if (!command.options.some((o) => o.attributeName() === attribute)) continue; // e.g. url for lint
    if (command.getOptionValueSource(attribute) === 'cli') continue;
    // The server's env reads $VAR from the environment, as its command does (init writes KEY: "${KEY}").
    const raw =
      spec.config === 'env'
        ? Object.fromEntries(
            Object.entries(config.env as Record<string, string>).map(([k, v]) => [k, withEnvironment(v, file)]),
          )
        : config[spec.config!];
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
  // (in env values and command words alike)
  return word.replace(ENV_REFERENCE, (_m, braced?: string, bare?: string) => {
    const key = (braced ?? bare)!;
    const value = process.env[key];
    if (value === undefined)
      throw new UsageError(
        `config ${file}: it reads $${key} for the server, which is not set in this environment (set it where the check runs; in CI, as a secret)`,
      );
    return value;
  });
}

/** An unknown setting close to a known one names it: "Unknown field 'comand' (did you mean 'command'?)". */
function withSuggestion(problem: string): string {
  const unknown = /^Unknown field '([^'/]+)'/.exec(problem)?.[1];
  if (unknown === undefined) return problem;
  const known = OPTIONS.flatMap((o) => (o.config !== undefined ? [o.config] : [])).concat(['command']);
  const near = closest(unknown, known);
  return near !== undefined ? `Unknown field '${unknown}' (did you mean '${near}'?)` : problem;
}
