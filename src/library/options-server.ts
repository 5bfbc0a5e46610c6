// How a server is reached: a command (its working directory and environment) or a URL (its protocol era, transport and
// headers), and the time each gets.
// Part of the one table of options (src/library/option-table.ts).
import { SERVER, lines, DEFAULT_TIMEOUT_MS, type OptionSpec } from './option-spec.js';
import { DEFAULT_STARTUP_TIMEOUT_MS } from '../transport/limits.js';

export const SERVER_REACH_OPTIONS: readonly OptionSpec[] = [
  // How a server is reached.
  {
    flag: '--url <url>',
    kind: 'text',
    library: 'url',
    config: 'url',
    commands: [...SERVER, 'serve'],
    help: 'check a Streamable HTTP server at this URL instead of starting a command',
    helpFor: {
      init: 'read a Streamable HTTP server at this URL instead of starting a command',
      serve: 'an upstream server over Streamable HTTP instead of a command',
    },
  },
  {
    flag: '--protocol <version>',
    kind: 'choice',
    choices: ['all', '2025-11-25', '2026-07-28'],
    library: 'protocol',
    config: 'protocol',
    commands: [...SERVER, 'serve'],
    default: 'all',
    help: 'protocol era to speak: all checks every era the server speaks, each on its own; 2025-11-25 (initialize, sessions) or 2026-07-28 (server/discover, a _meta envelope on every request, no session) checks only that one',
    helpFor: {
      init: 'protocol era to read the server in: all (default) takes the first it speaks, 2025-11-25 first',
      serve:
        'protocol era to speak to the upstream: all (default) takes the first it speaks, 2025-11-25 first (clients of either era are served)',
    },
  },
  {
    flag: '--transport <transport>',
    kind: 'choice',
    choices: ['auto', 'streamable-http', 'sse'],
    library: 'transport',
    config: 'transport',
    commands: SERVER,
    default: 'auto',
    help: 'HTTP transport for --url: auto tries Streamable HTTP, then the older HTTP+SSE (2024-11-05) on a 4xx',
  },
  {
    flag: '--header <Name: value>',
    kind: 'text',
    repeat: true,
    library: 'headers',
    config: 'headers',
    fromConfig: lines(': '),
    commands: [...SERVER, 'serve'],
    help: 'HTTP header for --url, repeatable; $VAR is read from the environment; never reported',
  },
  {
    flag: '--cwd <dir>',
    kind: 'text',
    library: 'cwd',
    config: 'cwd',
    path: true,
    commands: [...SERVER, 'serve'],
    help: 'working directory for the server command',
  },
  {
    flag: '--env <KEY=VALUE|KEY>',
    kind: 'text',
    repeat: true,
    library: 'env',
    config: 'env',
    fromConfig: lines('='),
    commands: SERVER,
    help: "environment variable for the server; KEY alone passes the checker's own value through (repeatable)",
  },
  {
    flag: '--inherit-env',
    kind: 'boolean',
    library: 'inheritEnv',
    config: 'inheritEnv',
    commands: SERVER,
    default: false,
    help: "give the server the checker's whole environment (risky: CI secrets reach the server; by default it gets only HOME, LOGNAME, PATH, SHELL, TERM, USER and --env)",
  },
  {
    flag: '--timeout <ms>',
    kind: 'integer',
    min: 1,
    max: 600_000,
    library: 'timeoutMs',
    config: 'timeoutMs',
    commands: SERVER,
    default: DEFAULT_TIMEOUT_MS,
    help: 'time limit for every request',
  },
  {
    flag: '--startup-timeout <ms>',
    kind: 'integer',
    min: 1,
    max: 3_600_000,
    library: 'startupTimeoutMs',
    config: 'startupTimeoutMs',
    commands: SERVER,
    default: DEFAULT_STARTUP_TIMEOUT_MS,
    defaultText: `${DEFAULT_STARTUP_TIMEOUT_MS} for a server command; --timeout for --url`,
    help: 'time a server gets to start and answer initialize (a cold npx -y, uvx or JVM takes seconds); once it says anything, --timeout applies. For --url, one budget for the whole connection attempt, whatever transports are tried',
  },
];
