/**
 * mcp-pd-check as a library: check a live MCP server (stdio command or Streamable HTTP URL) or
 * lint files, and get the report as data. Nothing happens on import: no process hooks, no
 * output; a run prints nothing and sets no exit code (`exitCodeFor` says what the CLI would).
 *
 *   import { checkServer, exitCodeFor } from 'mcp-pd-check';
 *   const report = await checkServer({ command: ['node', 'dist/server.js'] });
 *   if (report.verdict?.implements !== 'yes') …
 */
import { resolve } from 'node:path';
import { LINT_CHECKS, LIVE_CHECKS, PD_CRITERIA } from '../checks/index.js';
import type { LintCheck, LiveCheck } from './check.js';
import { commandFrom, parseUrl, withUrlCredentials } from './cli/target-args.js';
import type { CheckReport } from './generated/report.js';
import { InputError } from './input-error.js';
import { lintPaths } from './lint/lint.js';
import { checkTarget } from './live.js';
import { safeReport } from './safety/output.js';
import { Redactor } from './safety/redact.js';
import { selectChecks } from './select.js';
import { DEFAULT_SESSIONS } from './sessions.js';
import { DEFAULT_MAX_MESSAGE_MB } from './target/limits.js';
import { HttpTarget, StdioTarget, type HttpTransport, type Target } from './target/target.js';

export interface CheckServerOptions {
  /** The command that starts a stdio server: its words, or one string split as a shell would. */
  command?: readonly string[] | string;
  /** Working directory of the command. */
  cwd?: string;
  /** Variables added to the server's safe default environment (HOME, LOGNAME, PATH, SHELL, TERM, USER). */
  env?: Record<string, string>;
  /** Give the server this process's whole environment (risky: see the README). */
  inheritEnv?: boolean;
  /** A Streamable HTTP endpoint instead of a command. */
  url?: string;
  /** HTTP headers for `url` (never reported, never sent to another origin). */
  headers?: Record<string, string>;
  /** HTTP transport for `url`: `auto` (default) tries Streamable HTTP, then the older HTTP+SSE. */
  transport?: HttpTransport;
  /** Give tools annotated destructiveHint their example arguments (default: `{}`). */
  allowDestructive?: boolean;
  /** Time limit of every request, ms (default 5000). */
  timeoutMs?: number;
  /** Time a server gets to start and answer initialize, ms (default 30,000). */
  startupTimeoutMs?: number;
  /** Parallel sessions of the isolation check (default 3 over stdio, 16 over HTTP). */
  sessions?: number;
  /** Call only tools marked read-only. */
  safeCalls?: boolean;
  /** A folder of Tool Card files (<tool>.json) to compare with the live tools. */
  cards?: string;
  /** Optional extensions whose absence fails instead of skipping. */
  require?: Array<'dashdash' | 'toolcards'>;
  /** Check ids or prefixes (`pd-`) to run, or to leave out. */
  only?: string[];
  skip?: string[];
  /** Time limit of the whole run, ms (default 600,000). */
  maxDurationMs?: number;
  /** Largest message accepted from the server, MB (default 16). */
  maxResponseMb?: number;
  /** The checks to run (default: every live check, `LIVE_CHECKS`). */
  checks?: readonly LiveCheck[];
}

/**
 * Runs the live checks against a server and returns the report, secrets masked as in every CLI
 * output. Throws TargetUnavailableError when the server cannot be started or reached, and
 * InputError for options that make no sense (no command and no URL, an unknown check id…).
 */
export async function checkServer(options: CheckServerOptions): Promise<CheckReport> {
  const checks = selectChecks(options.checks ?? LIVE_CHECKS, options.only, options.skip);
  const timeoutMs = options.timeoutMs ?? 5000;
  const sessions = options.sessions ?? DEFAULT_SESSIONS[options.url !== undefined ? 'http' : 'stdio'];
  const limits = { maxMessageBytes: (options.maxResponseMb ?? DEFAULT_MAX_MESSAGE_MB) * 1024 * 1024 };
  let target: Target;
  let redactor: Redactor;
  if (options.url !== undefined) {
    if (options.command !== undefined) throw new InputError('give either command or url, not both');
    const given = parseUrl(options.url);
    const { url, headers } = withUrlCredentials(given, options.headers ?? {});
    redactor = Redactor.forRun({ headers, url: given });
    target = new HttpTarget(url, headers, { timeoutMs, startupTimeoutMs: options.startupTimeoutMs, limits, redactor, transport: options.transport });
  } else {
    if (options.command === undefined) throw new InputError('no server to check: give command (e.g. [\'node\', \'server.js\']) or url');
    const words = typeof options.command === 'string' ? [options.command] : [...options.command];
    const env = options.env ?? {};
    redactor = Redactor.forRun({ serverEnv: env });
    target = new StdioTarget({ ...commandFrom(words, options.cwd, env), inheritEnv: options.inheritEnv }, { timeoutMs, startupTimeoutMs: options.startupTimeoutMs, limits, redactor });
  }
  const live = { timeoutMs, sessions, safeCalls: options.safeCalls ?? false, allowDestructive: options.allowDestructive ?? false, require: options.require ?? [], ...(options.cards !== undefined ? { cardsDir: resolve(options.cwd ?? process.cwd(), options.cards) } : {}) };
  const report = await checkTarget(target, live, { checks, maxDurationMs: options.maxDurationMs, reportOptions: { timeoutMs, sessions, safeCalls: live.safeCalls } });
  return safeReport(report, redactor);
}

/** Lints files, folders and globs offline; throws InputError for a path that does not exist. */
export async function lint(paths: string[], options: { cwd?: string; now?: Date; checks?: readonly LintCheck[]; only?: string[]; skip?: string[] } = {}): Promise<CheckReport> {
  const checks = selectChecks(options.checks ?? LINT_CHECKS, options.only, options.skip);
  const report = await lintPaths(paths, { cwd: options.cwd ?? process.cwd(), now: options.now, checks });
  return safeReport(report, Redactor.forRun());
}

/** Whether a report is a pass for the nine progressive-disclosure criteria. */
export function passesProgressiveDisclosure(report: CheckReport): boolean {
  const ids = new Set(PD_CRITERIA.map((c) => c.id));
  const results = report.results.filter((r) => ids.has(r.id));
  return results.length === ids.size && results.every((r) => r.status === 'pass' || r.status === 'warn');
}

export { LINT_CHECKS, LIVE_CHECKS, PD_CRITERIA };
export { EXIT, exitCodeFor, type FailOn } from './exit-codes.js';
export { InputError } from './input-error.js';
export { TargetUnavailableError } from './target/types.js';
export { defineLiveCheck, defineLintCheck, severityOf, type LiveCheck, type LintCheck, type CheckDefinition, type CheckSpec, type CheckNeeds } from './check.js';
export type { LiveContext } from './context.js';
export type { LintContext } from './lint/context.js';
export type { MessageSpec, Messages, Args } from './messages.js';
export type {
  CheckReport, CheckResult, Finding, FindingLevel, FindingLocation, ReportSummary, ReportTarget, SpecRef, TranscriptExchange,
} from './generated/report.js';
