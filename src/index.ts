/**
 * mcp-pd-check as a library: check a live MCP server (stdio command or Streamable HTTP URL) or
 * lint files, and get the report as data. Nothing happens on import: no process hooks, no
 * output; a run prints nothing and sets no exit code (`exitCodeFor` says what the CLI would).
 *
 *   import { checkServer, exitCodeFor } from 'mcp-pd-check';
 *   const report = await checkServer({ command: ['node', 'dist/server.js'] });
 *   if (report.verdict?.implements !== 'yes') …
 */
import { PD_CRITERIA, LINT_CHECKS, LIVE_CHECKS } from '../checks/index.js';
import type { CheckReport } from './generated/report.js';

export {
  checkServer,
  prepareCheck,
  planCheck,
  DEFAULT_MAX_DURATION_MS,
  type CheckServerOptions,
  type PreparedCheck,
} from './library/check-server.js';
export { lint, type LintOptions } from './library/lint.js';
export { initServer, type InitServerOptions, type InitOutcome } from './library/init-server.js';
export { serve, type ServeOptions, type Serving } from './library/serve.js';
export type { ServerOptions } from './library/server-options.js';

/** Whether a report is a pass for the nine progressive-disclosure criteria. */
export function passesProgressiveDisclosure(report: CheckReport): boolean {
  const ids = new Set(PD_CRITERIA.map((c) => c.id));
  const results = report.results.filter((r) => ids.has(r.id));
  return results.length === ids.size && results.every((r) => r.status === 'pass' || r.status === 'warn');
}

export { LINT_CHECKS, LIVE_CHECKS, PD_CRITERIA };
export { EXIT, exitCodeFor, type FailOn } from './core/exit-codes.js';
export { InputError } from './core/input-error.js';
export { TargetUnavailableError } from './transport/types.js';
export { severityOf, type CheckDefinition, type CheckSpec, type CheckNeeds, type Fact } from './core/check.js';
export { defineLiveCheck, type LiveCheck } from './run/check.js';
export { defineLintCheck, type LintCheck } from './lint/check.js';
export type { LiveContext } from './run/context.js';
export type { LintContext } from './lint/context.js';
export type { MessageSpec, Messages, Args } from './core/messages.js';
export type {
  CheckReport,
  CheckResult,
  Finding,
  FindingLevel,
  FindingLocation,
  ReportSummary,
  ReportTarget,
  SpecRef,
  TranscriptExchange,
} from './generated/report.js';
