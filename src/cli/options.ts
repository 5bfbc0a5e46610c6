// The flags every command shares, what they become in the library's options, and how the
// library's errors name them here (as flags).
import { Command, InvalidArgumentError, Option } from 'commander';
import { FORMAT_NAMES } from '../../reports/formats.js';
import type { FailOn } from '../core/exit-codes.js';
import type { ServerOptions, Spelling } from '../library/server-options.js';
import type { HttpTransport } from '../transport/target.js';
import { DEFAULT_STARTUP_TIMEOUT_MS } from '../transport/limits.js';
import { parseEnv, parseHeaders } from './target-args.js';

export const DEFAULT_CONFIG = 'mcp-pd-check.config.json';
export const DEFAULT_BASELINE = 'mcp-pd-check.baseline.json';

/** Flags of a report: live runs and lint. */
export interface OutputFlags {
  config?: string;
  format: string;
  output?: string;
  report: string[];
  only: string[];
  skip: string[];
  baseline?: string;
  updateBaseline: boolean;
  quiet: boolean;
  failOn: FailOn;
  color: boolean;
  verbose: boolean;
}

/** Flags that say how a server is reached: live runs and init. */
export interface ServerFlags {
  url?: string;
  transport: HttpTransport;
  header: string[];
  cwd?: string;
  env: string[];
  inheritEnv: boolean;
  timeout: number;
  startupTimeout: number;
}

/** The library's errors name options as the flags that set them. */
export const CLI_SPELLING: Spelling = {
  option: (key) => ({ command: 'a server command', headers: '--header', inheritEnv: '--inherit-env', maxResponseMb: '--max-response' })[key] ?? `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
  noServer: 'give the command that starts it (mcp-pd-check -- node server.js) or --url http://host/mcp',
};

/** The flags of a server, as the library's options. */
export function serverOptionsFrom(words: string[], flags: ServerFlags & { maxResponse?: number }): ServerOptions {
  return {
    ...(words.length ? { command: words } : {}),
    ...(flags.url !== undefined ? { url: flags.url } : {}),
    ...(flags.cwd !== undefined ? { cwd: flags.cwd } : {}),
    env: parseEnv(flags.env),
    inheritEnv: flags.inheritEnv,
    headers: parseHeaders(flags.header),
    transport: flags.transport,
    timeoutMs: flags.timeout,
    startupTimeoutMs: flags.startupTimeout,
    ...(flags.maxResponse !== undefined ? { maxResponseMb: flags.maxResponse } : {}),
  };
}

export function integer(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** How a server is reached (a command or a URL), shared by live runs and init. */
export function withServerFlags(command: Command, verb: 'check' | 'read'): Command {
  return command
    .option('--url <url>', `${verb} a Streamable HTTP server at this URL instead of starting a command`)
    .addOption(new Option('--transport <transport>', 'HTTP transport for --url: auto tries Streamable HTTP, then the older HTTP+SSE (2024-11-05) on a 4xx').choices(['auto', 'streamable-http', 'sse']).default('auto'))
    .option('--header <Name: value>', 'HTTP header for --url, repeatable; $VAR is read from the environment; never reported', collect, [])
    .option('--cwd <dir>', 'working directory for the server command')
    .option('--env <KEY=VALUE|KEY>', 'environment variable for the server; KEY alone passes the checker\'s own value through (repeatable)', collect, [])
    .option('--inherit-env', 'give the server the checker\'s whole environment (risky: CI secrets reach the server; by default it gets only HOME, LOGNAME, PATH, SHELL, TERM, USER and --env)', false)
    .option('--timeout <ms>', 'time limit for every request', integer(1, 600_000), 5000)
    .option('--startup-timeout <ms>', 'time a server gets to start and answer initialize (a cold npx -y, uvx or JVM takes seconds); once it says anything, --timeout applies', integer(1, 3_600_000), DEFAULT_STARTUP_TIMEOUT_MS);
}

/** The report flags shared by live runs and lint. */
export function withOutputFlags(command: Command): Command {
  return command
    .option('--config <file>', `settings file (default: ${DEFAULT_CONFIG} in the working directory, if there is one)`)
    .addOption(new Option('-f, --format <format>', 'report format').choices(FORMAT_NAMES).default('text'))
    .option('-o, --output <file>', 'write the report to a file instead of stdout')
    .option('--report <format=file>', `also write a report in another format, e.g. junit=out.xml (repeatable; ${FORMAT_NAMES.join(', ')})`, collect, [])
    .option('--baseline <file>', 'accepted findings: reported, but they do not fail the run; fixed ones are reported as stale')
    .option('--update-baseline', `write this run's findings to the --baseline file (default ${DEFAULT_BASELINE})`, false)
    // One value each (comma lists or repeats): a variadic option would swallow the paths after it.
    .option('--only <ids>', 'run only these checks: ids or prefixes such as pd- or dashdash-, comma-separated or repeated', collect, [])
    .option('--skip <ids>', 'do not run these checks (ids or prefixes, comma-separated or repeated)', collect, [])
    .addOption(new Option('--fail-on <level>', 'lowest finding level that fails the run').choices(['error', 'warning', 'never']).default('error'))
    .option('--no-color', 'plain text output (also when NO_COLOR is set or output is not a terminal)')
    .option('-q, --quiet', 'no progress line on stderr (it is shown only on a terminal anyway)', false)
    .option('-v, --verbose', 'list every finding on its own (by default one code found on many tools is one entry)', false);
}
