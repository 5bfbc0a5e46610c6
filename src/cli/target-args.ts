import { parse as shellParse } from 'shell-quote';
import type { StdioCommand } from '../target/stdio.js';
import { UsageError } from './usage-error.js';

/**
 * The server command from the positional arguments: `node server.js --flag`, or one quoted string
 * (`"node server.js --flag"`) split the way a shell would, with $VARS from the environment.
 */
export function commandFrom(words: string[], cwd: string | undefined, env: Record<string, string>): StdioCommand {
  let argv = words;
  if (words.length === 1 && /\s/.test(words[0]!)) {
    const parsed = shellParse(words[0]!, (key) => process.env[key] ?? '');
    const operator = parsed.find((p) => typeof p !== 'string');
    if (operator) {
      throw new UsageError(`the server command contains shell syntax (${JSON.stringify(operator)}); run it through a shell instead: mcp-pd-check -- sh -c '…'`);
    }
    argv = parsed as string[];
  }
  if (argv.length === 0 || !argv[0]) {
    throw new UsageError('no server to check: give the command that starts it, e.g. mcp-pd-check -- node server.js');
  }
  return { command: argv[0], args: argv.slice(1), cwd, env };
}

/** `--env KEY=VALUE`, repeatable. */
export function parseEnv(pairs: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--env expects KEY=VALUE, got '${pair}'`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}
