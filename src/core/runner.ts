import type { CheckDefinition, LiveCheck } from './check.js';
import { executionOrder, opensOf, severityOf } from './check.js';
import { LiveContext, StopCheck, type LiveOptions } from './context.js';
import type { Discovery } from './discovery.js';
import { FindingSink, SkipCheck, SHARED_MESSAGES } from './findings.js';
import type { CheckResult, Finding, FindingLevel } from '../generated/report.js';
import type { Messages } from './messages.js';
import { TargetUnavailableError, type Target } from '../transport/target.js';
import type { McpSession } from '../transport/session.js';
import type { RunState } from '../pd/run-state.js';
import { asText } from '../util/text.js';

export interface RunHooks {
  /** Told when the first session starts, then every second until it has started (a progress line). */
  onStartWait?(seconds: number): void;
  /** Told when a check starts (for a progress line); never used to print from here. */
  onCheckStart?(check: { id: string; opens?: CheckDefinition<unknown>['opens'] }, index: number, total: number): void;
  /** Told when a check has finished (the CLI collects garbage there on large runs). */
  onCheckEnd?(check: { id: string }): void;
}

/** Work of the run itself, around the checks. */
export interface RunPhases {
  /** Before the checks that read the whole run's traffic (the exploration). */
  beforeLast?(): Promise<void>;
  /** Once every check has run, on their results (the model's judgement). */
  afterChecks?(results: Map<string, CheckResult>): Promise<void>;
}

/** A check that runs longer than this is stopped and reported as `error`. */
export const CHECK_TIME_LIMIT_MS = 120_000;

/** How many sessions these checks will open, from their `opens` metadata. */
export function plannedOpens(checks: readonly LiveCheck[], options: LiveOptions, selected: readonly string[] = checks.map((c) => c.id), cleanOpen = false): number {
  const clean = !cleanOpen && checks.some((c) => c.clean) ? 1 : 0;
  return clean + checks.reduce((sum, c) => sum + opensOf(c, { sessions: options.sessions, selected }), 0);
}

export function statusOf(findings: Finding[]): CheckResult['status'] {
  if (findings.some((f) => f.level === 'error')) return 'fail';
  if (findings.some((f) => f.level === 'warning')) return 'warn';
  return 'pass';
}

/**
 * Runs one check of any kind: stamps the check's own metadata on the result, times it, limits
 * its time, and turns an exception into status `error` (never a crash). `finish` releases what
 * the context holds (sessions) however the check ended.
 */
export async function executeCheck<Ctx extends FindingSink>(
  check: Readonly<CheckDefinition<Ctx>>,
  makeContext: (messages: Messages, failLevel: FindingLevel) => Ctx,
  finish: (ctx: Ctx) => Promise<void> = async () => {},
  deadline?: RunDeadline,
): Promise<CheckResult> {
  const limitMs = Math.max(0, Math.min(CHECK_TIME_LIMIT_MS, deadline ? deadline.at - performance.now() : Infinity));
  const stoppedByRun = deadline !== undefined && limitMs < CHECK_TIME_LIMIT_MS;
  const ctx = makeContext(check.messages, severityOf(check.spec.level));
  const started = performance.now();
  let status: CheckResult['status'] | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CheckTimeout()), limitMs);
    });
    await Promise.race([check.run(ctx), limit]);
  } catch (err) {
    if (err instanceof SkipCheck) {
      status = 'skip';
      ctx.info(err.code, err.args);
    } else if (err instanceof CheckTimeout) {
      status = 'error';
      ctx.add('error', stoppedByRun ? 'run-time-up' : 'check-timeout', { seconds: stoppedByRun ? deadline!.seconds : CHECK_TIME_LIMIT_MS / 1000 });
    } else {
      status = recordThrown(ctx, err);
    }
  } finally {
    clearTimeout(timer);
    await finish(ctx);
  }
  return resultOf(check, status ?? statusOf(ctx.findings), ctx.findings, Math.round(performance.now() - started));
}

/**
 * What an exception ending a check (or its work at the end of the run) means: a server that could
 * not start another session is its fault (a finding); StopCheck ends a check whose failure is
 * recorded; anything else is the checker's own crash, status `error`.
 */
function recordThrown(ctx: FindingSink, err: unknown): CheckResult['status'] | undefined {
  if (err instanceof TargetUnavailableError) {
    ctx.add('error', 'session-unavailable', { reason: err.message });
    return undefined;
  }
  if (err instanceof StopCheck) return undefined;
  ctx.add('error', 'check-crashed', { error: (err as Error)?.message ?? asText(err) });
  return 'error';
}

/** A check's result: its own metadata, stamped once here, with what the run found. */
export function resultOf(check: Pick<CheckDefinition<never>, 'id' | 'title' | 'spec'>, status: CheckResult['status'], findings: Finding[], durationMs: number): CheckResult {
  const { requirements, ...spec } = check.spec;
  return { id: check.id, title: check.title, status, severity: severityOf(check.spec.level), spec: { ...spec, requirements }, durationMs, findings };
}

/** A result made by the runner itself (the check did not run): one finding of a shared code. */
function runnerResult(check: LiveCheck, status: CheckResult['status'], level: FindingLevel, code: keyof typeof SHARED_MESSAGES, args: Record<string, unknown>): CheckResult {
  const sink = new FindingSink(SHARED_MESSAGES, level);
  sink.add(level, code, args);
  return resultOf(check, status, sink.findings, 0);
}

/**
 * Runs live checks one after another (sessions of different checks never overlap, so a leak
 * between sessions is only ever seen by the check that looks for it). A check whose `needs` the
 * target cannot meet is skipped here, with the reason: checks never test the target's kind.
 */
export async function runLiveChecks(
  checks: readonly LiveCheck[],
  target: Target,
  discovery: Discovery,
  reader: McpSession,
  options: LiveOptions,
  run: RunState,
  hooks: RunHooks = {},
  deadline?: RunDeadline,
  phases: RunPhases = {},
): Promise<CheckResult[]> {
  const byId = new Map<string, CheckResult>();
  const later: Array<{ ctx: LiveContext; result: CheckResult }> = [];
  const order = executionOrder(checks);
  const selectedIds = checks.map((c) => c.id);
  let lastStarted = false;
  const runLater = async () => {
    // Work left for the end of the run (a grant re-checked after everything else).
    for (const { ctx, result } of later) {
      let thrown: CheckResult['status'] | undefined;
      try {
        for (const work of ctx.deferred) await work();
      } catch (err) {
        thrown = recordThrown(ctx, err);
      }
      if (result.status === 'pass' || result.status === 'warn' || result.status === 'fail') result.status = thrown ?? statusOf(ctx.findings);
      result.findings = ctx.findings;
    }
  };
  // Their sessions close after the exploration, which may use those that hold nothing.
  const closeLater = async () => {
    for (const { ctx } of later.splice(0)) await ctx.closeAll();
  };
  for (const [index, check] of order.entries()) {
    // The checks that come last (they read the whole run's traffic) come after the deferred work
    // and the exploration.
    if (check.runs === 'last' && !lastStarted) {
      lastStarted = true;
      await runLater();
      await phases.beforeLast?.();
      await closeLater();
    }
    if (deadline && performance.now() >= deadline.at) {
      byId.set(check.id, runnerResult(check, 'error', 'error', 'not-run', { seconds: deadline.seconds }));
      continue;
    }
    if (check.needs === 'http' && target.kind !== 'http') {
      byId.set(check.id, runnerResult(check, 'skip', 'info', 'needs-http', { kind: target.kind }));
      continue;
    }
    target.reserve(plannedOpens(order.slice(index), options, selectedIds, run.cleanOpened));
    hooks.onCheckStart?.(check, index, order.length);
    let ctx: LiveContext | undefined;
    const result = await executeCheck(check, (messages, level) => (ctx = new LiveContext(target, discovery, options, reader, run, messages, level)),
      (c) => (c.deferred.length ? Promise.resolve() : c.closeAll()), deadline);
    byId.set(check.id, result);
    if (ctx && ctx.deferred.length) later.push({ ctx, result });
    hooks.onCheckEnd?.(check);
  }
  if (!lastStarted) {
    await runLater();
    await phases.beforeLast?.();
    await closeLater();
  }
  await phases.afterChecks?.(byId);
  // The report keeps the registry's order, whatever order the checks ran in.
  return checks.map((c) => byId.get(c.id)!);
}

/** The end of the whole run (`performance.now()` time) and the --max-duration it came from. */
export interface RunDeadline {
  at: number;
  seconds: number;
}

class CheckTimeout extends Error {}
