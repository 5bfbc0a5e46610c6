import type { CheckDefinition } from './check.js';
import { checkSeverity } from './check.js';
import type { PluginOrigin } from './check.js';
import { type FindingSink, SkipCheck } from './findings.js';
import type { CheckResult, Finding, FindingLevel } from '../generated/report.js';
import type { Messages } from './messages.js';
import { SlowStartError, TargetUnavailableError } from '../transport/types.js';
import { asText } from '../util/text.js';
import { thrownAt } from '../util/stack.js';

/** A check that runs longer than this is stopped and reported as `error`. */
export const CHECK_TIME_LIMIT_MS = 120_000;

/** The end of the whole run (`performance.now()` time) and the --max-duration it came from. */
export interface RunDeadline {
  at: number;
  seconds: number;
}

/** How a check's work ended, besides its findings: skipped (it did not apply) or broken (status error). */
export interface Outcome {
  skipped?: boolean;
  errored?: boolean;
}

/** Ends a check whose prerequisite is missing; its failure is already recorded. */
export class StopCheck extends Error {
  override name = 'StopCheck';
}

/**
 * A check's status, from how its work ended and what it found: the one place it is decided
 * (a check's result is built once, at the end of the run, from this).
 */
export function statusOf(outcome: Outcome, findings: readonly Finding[]): CheckResult['status'] {
  if (outcome.skipped) return 'skip';
  if (outcome.errored) return 'error';
  if (findings.some((f) => f.level === 'error')) return 'fail';
  if (findings.some((f) => f.level === 'warning')) return 'warn';
  return 'pass';
}

/** A check's result: its own metadata, stamped once here, with what the run found. */
export function resultOf(
  check: Pick<CheckDefinition<never>, 'id' | 'title' | 'spec' | 'severity' | 'plugin'>,
  status: CheckResult['status'],
  findings: Finding[],
  durationMs: number,
): CheckResult {
  const { requirements, ...spec } = check.spec;
  return {
    id: check.id,
    title: check.title,
    status,
    severity: checkSeverity(check),
    spec: { ...spec, requirements },
    ...(check.plugin ? { plugin: { name: check.plugin.name, version: check.plugin.version } } : {}),
    durationMs,
    findings,
  };
}

/**
 * Runs a piece of a check's work (its `run`, or work it left for the end of the run) within its
 * time limit, and turns what ended it into the outcome: a skip, a crash (status `error`, never a
 * crash of the checker), a server that could not open another session (a finding), or a stop.
 * `limitMs` is the time it may take; `byRun` says the limit is the run's own (--max-duration).
 */
export async function runWork(
  sink: FindingSink,
  work: () => Promise<void>,
  limit: { ms: number; byRun?: RunDeadline },
  plugin?: PluginOrigin,
): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const stop = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CheckTimeout()), Math.max(0, limit.ms));
    });
    await Promise.race([work(), stop]);
    return {};
  } catch (err) {
    if (err instanceof SkipCheck) {
      sink.info(err.code, err.args);
      return { skipped: true };
    }
    if (err instanceof CheckTimeout) {
      sink.add('error', limit.byRun ? 'run-time-up' : 'check-timeout', {
        seconds: limit.byRun ? limit.byRun.seconds : CHECK_TIME_LIMIT_MS / 1000,
      });
      sink.seal();
      return { errored: true };
    }
    // A later session that did not start in time proves nothing (a slow start): not proven, never failed.
    if (err instanceof SlowStartError) {
      sink.info('slow-start', { reason: err.message.replace(/^the server /, '') });
      return sink.findings.some((f) => f.level === 'error') ? {} : { skipped: true };
    }
    if (err instanceof TargetUnavailableError) {
      sink.add('error', 'session-unavailable', { reason: err.message });
      return {};
    }
    if (err instanceof StopCheck) return {};
    const error = (err as Error)?.message ?? asText(err);
    // A plugin's check that broke is the plugin's problem, shown at its own line.
    if (plugin)
      sink.add('error', 'plugin-check-crashed', { plugin: plugin.name, error, at: placeInPlugin(err, plugin) });
    else sink.add('error', 'check-crashed', { error });
    return { errored: true };
  } finally {
    clearTimeout(timer);
  }
}

/** The time a check may take now: its own limit, or what is left of the run's, whichever is shorter. */
export function checkLimit(deadline: RunDeadline | undefined): { ms: number; byRun?: RunDeadline } {
  const left = deadline ? deadline.at - performance.now() : Infinity;
  return left < CHECK_TIME_LIMIT_MS ? { ms: left, byRun: deadline } : { ms: CHECK_TIME_LIMIT_MS };
}

/**
 * Runs one check from start to result (the lint's checks: nothing is left for later). Stamps the
 * check's metadata, times it, limits its time; `finish` releases what the context holds.
 */
export async function executeCheck<Ctx extends FindingSink>(
  check: Readonly<CheckDefinition<Ctx>>,
  makeContext: (messages: Messages, failLevel: FindingLevel) => Ctx,
  finish: (ctx: Ctx) => Promise<void> = async () => {},
  deadline?: RunDeadline,
): Promise<CheckResult> {
  const ctx = makeContext(check.messages, checkSeverity(check));
  const started = performance.now();
  let outcome: Outcome;
  try {
    outcome = await runWork(ctx, () => check.run(ctx), checkLimit(deadline), check.plugin);
  } finally {
    await finish(ctx);
  }
  return resultOf(check, statusOf(outcome, ctx.findings), ctx.findings, Math.round(performance.now() - started));
}

class CheckTimeout extends Error {}

/**
 * Where in the plugin a check broke: the first frame of the error's stack in the plugin's own folder
 * (else in any file outside mcp-pd-check), as `file:line:column`.
 */
function placeInPlugin(err: unknown, plugin: PluginOrigin): string {
  // A plugin that ships inside the checker (the quality rules) has no file of its own: its place is in
  // src/, as an internal error's is (the bundle's source map, src/util/stack.ts).
  if (!plugin.file) {
    const inSource = thrownAt(err);
    if (inSource) return inSource;
  }
  const frames = (typeof (err as Error)?.stack === 'string' ? (err as Error).stack! : '')
    .split('\n')
    .map((line) => /\(?((?:file:\/\/)?\/[^()\s]+?):(\d+):(\d+)\)?\s*$/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ file: m[1].replace(/^file:\/\//, ''), at: `${m[1].replace(/^file:\/\//, '')}:${m[2]}:${m[3]}` }));
  // The plugin's folder: a check may live in another file of the plugin than its entry module.
  const folder = plugin.file?.slice(0, plugin.file.lastIndexOf('/') + 1);
  const own = folder ? frames.find((f) => f.file.startsWith(folder)) : undefined;
  const outside = frames.find(
    (f) => !f.file.includes('/mcp-pd-check/') && !f.file.includes('/node_modules/') && !f.file.startsWith('node:'),
  );
  return (own ?? outside ?? frames[0])?.at ?? 'an unknown place';
}
