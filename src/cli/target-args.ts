import { ENV_REFERENCE } from '../library/server-options.js';
import { OPTIONS, type CommandName } from '../library/option-table.js';
import { UsageError } from './usage-error.js';

/**
 * `--env KEY=VALUE` sets a variable for the server; `--env KEY` passes the checker's own value
 * through (the server otherwise gets only the safe default set). Repeatable.
 */
export function parseEnv(pairs: string[], from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
      throw new UsageError(`--env expects KEY=VALUE or KEY (a variable to pass through), got '${pair.slice(0, 40)}'`);
    if (eq >= 0) {
      env[key] = pair.slice(eq + 1);
      continue;
    }
    const value = from[key];
    if (value === undefined)
      throw new UsageError(
        `--env ${key}: the variable ${key} is not set in this environment, so there is nothing to pass through (give --env ${key}=VALUE)`,
      );
    env[key] = value;
  }
  return env;
}

/** One `--header` line split into its name and its value as written (before $VAR is read). */
export function headerLine(line: string): { name: string; written: string } {
  const colon = line.indexOf(':');
  const name = colon > 0 ? line.slice(0, colon).trim() : '';
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
    throw new UsageError(`--header expects "Name: value", got '${line.slice(0, 40)}${line.length > 40 ? '…' : ''}'`);
  }
  return { name, written: line.slice(colon + 1).trim() };
}

/**
 * `--header "Name: value"`, repeatable; `$VAR` or `${VAR}` in a value is read from the
 * environment, so that secrets need not be typed on the command line (or land in shell history).
 */
export function parseHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const { name, written } = headerLine(line);
    const value = written.replace(ENV_REFERENCE, (_m, a?: string, b?: string) => {
      const key = (a ?? b)!;
      const v = process.env[key];
      if (v === undefined) throw new UsageError(`--header ${name}: the environment variable ${key} is not set`);
      return v;
    });
    headers[name] = value;
  }
  return headers;
}

/** `--header` lines as written, before $VAR is read: what init may put in a committed config. */
export function writtenHeaders(lines: string[]): Record<string, string> {
  return Object.fromEntries(
    lines.map((line) => {
      const { name, written } = headerLine(line);
      return [name, written];
    }),
  );
}

/**
 * Flags of this command written after the server command, with no `--` before it: they went to the
 * server, which is rarely what was meant. A hint names them (the run goes on: a server may take
 * a flag of the same name).
 */
export function flagsAfterCommandHint(
  words: readonly string[],
  rawArgs: readonly string[],
  command: CommandName,
): string | undefined {
  const start = rawArgs.indexOf(words[0] ?? '');
  // (a command from a config file was not typed after anything)
  if (start < 0) return undefined;
  const separated = rawArgs.indexOf('--');
  if (separated >= 0 && separated < start) return undefined;
  const ours = new Set(
    OPTIONS.filter((o) => o.commands.includes(command)).flatMap((o) => [
      o.flag.split(' ')[0],
      ...(o.short ? [o.short] : []),
    ]),
  );
  const found = words
    .slice(1)
    .map((w) => w.split('=')[0])
    .filter((w) => ours.has(w));
  if (!found.length) return undefined;
  return `note: ${[...new Set(found)].join(', ')} after the server command ${found.length === 1 ? 'goes' : 'go'} to the server, not to ${command === 'check' ? 'the checker' : command}; put them before the command if they were meant for ${command === 'check' ? 'it' : `mcp-pd-check ${command}`}`;
}
