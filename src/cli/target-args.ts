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

/**
 * `--env KEY=VALUE` sets a variable for the server; `--env KEY` passes the checker's own value
 * through (the server otherwise gets only the safe default set). Repeatable.
 */
export function parseEnv(pairs: string[], from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new UsageError(`--env expects KEY=VALUE or KEY (a variable to pass through), got '${pair.slice(0, 40)}'`);
    if (eq >= 0) {
      env[key] = pair.slice(eq + 1);
      continue;
    }
    const value = from[key];
    if (value === undefined) throw new UsageError(`--env ${key}: the variable ${key} is not set in this environment, so there is nothing to pass through (give --env ${key}=VALUE)`);
    env[key] = value;
  }
  return env;
}

/** `$VAR` or `${VAR}` in a --header value. */
export const ENV_REFERENCE = /\$\{(\w+)\}|\$(\w+)/g;

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

/**
 * `user:password@` in a --url becomes `Authorization: Basic …`, as curl does: fetch refuses a URL
 * with credentials, and a header is what never follows a redirect elsewhere. An Authorization
 * header given with --header wins.
 */
export function withUrlCredentials(url: URL, headers: Record<string, string>): { url: URL; headers: Record<string, string> } {
  if (!url.username && !url.password) return { url, headers };
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) return { url: bare, headers };
  const decode = (part: string) => { try { return decodeURIComponent(part); } catch { return part; } };
  const pair = `${decode(url.username)}:${decode(url.password)}`;
  return { url: bare, headers: { ...headers, Authorization: `Basic ${Buffer.from(pair).toString('base64')}` } };
}

/** `--url`: an http(s) URL of a Streamable HTTP endpoint. */
export function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--url '${text}' is not a URL; give e.g. http://127.0.0.1:3000/mcp`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url must be http:// or https://, got '${url.protocol}'`);
  return url;
}
