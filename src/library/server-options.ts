import type { HttpTransport } from '../transport/http-target.js';
import type { Era } from '../transport/era.js';

/** How a server is reached: a command started over stdio, or a Streamable HTTP URL. */
export interface ServerOptions {
  /** The command that starts a stdio server: its words, or one string split as a shell would. */
  command?: readonly string[] | string;
  /** Working directory of the command. */
  cwd?: string;
  /** Variables added to the server's safe default environment (HOME, LOGNAME, PATH, SHELL, TERM, USER). */
  env?: Record<string, string>;
  /**
   * Give the server this process's whole environment (risky: see docs/checking.md, "Secrets and the server's
   * environment").
   */
  inheritEnv?: boolean;
  /** A Streamable HTTP endpoint instead of a command. */
  url?: string;
  /** HTTP headers for `url` (never reported, never sent to another origin). */
  headers?: Record<string, string>;
  /** HTTP transport for `url`: `auto` (default) tries Streamable HTTP, then the older HTTP+SSE. */
  transport?: HttpTransport;
  /**
   * The protocol era to speak: `all` (default) checks every era the server speaks; `2025-11-25`
   * (initialize, sessions) or `2026-07-28` (server/discover, no sessions) only that one.
   */
  protocol?: 'all' | Era;
  /** Time limit of every request, ms (default 5000). */
  timeoutMs?: number;
  /** Time a server gets to start and answer initialize, ms (default 30,000). */
  startupTimeoutMs?: number;
  /** Largest message accepted from the server, MB (default 16). */
  maxResponseMb?: number;
}

/**
 * How an error names an option. The library names its own option keys (`url`); the CLI passes
 * its flags (`--url`), so that one validation speaks both languages.
 */
export interface Spelling {
  option: (key: string) => string;
  /** How to name a server in "no server to check" (an example the caller can copy). */
  noServer: string;
}

export const LIBRARY_SPELLING: Spelling = {
  option: (key) => key,
  noServer: "give command (e.g. ['node', 'server.js']) or url",
};

/** `$VAR` or `${VAR}` in a header value: read from the environment, and kept as written in a committed config. */
export const ENV_REFERENCE = /\$\{(\w+)\}|\$(\w+)/g;
