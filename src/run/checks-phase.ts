import { freshOf, opensOf, checkSeverity, readsTraffic, type Fact } from '../core/check.js';
import { checkLimit, resultOf, runWork, statusOf, type Outcome, type RunDeadline } from '../core/execute.js';
import { FindingSink, SHARED_MESSAGES } from '../core/findings.js';
import type { RunHooks } from '../core/hooks.js';
import type { CheckResult, FindingLevel } from '../generated/report.js';
import type { LiveCheck } from './check.js';
import { LiveContext } from './context.js';
import { SESSION_CRITERIA, type Run } from './run.js';

/** One check across the whole run: its one findings sink (its context), how its work ended, how long it took. */
export interface CheckState {
  check: LiveCheck;
  ctx?: LiveContext;
  outcome: Outcome;
  durationMs: number;
  /** The clean session's calls, made for this check before the checks started (creditCleanSessionWork). */
  cleanSessionMs: number;
  /** A result the runner made itself: the check could not run (an HTTP check over stdio, the run's time was up). */
  runnerResult?: CheckResult;
}

/**
 * The checks of a live run: each starts as soon as the facts it reads exist, checks that do not
 * depend on each other run at the same time; work they leave for the end runs after all of them;
 * checks that read the whole run's traffic run when the traffic phase comes. Results are built
 * once, at the end (`results`), from each check's sink and outcome.
 */
export class CheckRuns {
  readonly states: CheckState[];
  private started = 0;

  constructor(
    private readonly run: Run,
    checks: readonly LiveCheck[],
    private readonly hooks: RunHooks = {},
    private readonly deadline?: RunDeadline,
  ) {
    this.states = checks.map((check) => ({ check, outcome: {}, durationMs: 0, cleanSessionMs: 0 }));
    // Each check's sessions are named as the session plan numbers them: the same in every run.
    let next = 0;
    const planOptions = {
      sessions: run.plan.sessions,
      selected: checks.map((c) => c.id),
      toolForm: true,
      shared: run.shared !== undefined,
    };
    for (const check of checks) {
      const count = opensOf(check, planOptions) + freshOf(check, planOptions);
      this.labels.set(
        check.id,
        Array.from({ length: count }, () => `s${++next}`),
      );
    }
  }

  private readonly labels = new Map<string, string[]>();

  /**
   * Time the run spent on a check's behalf before the checks started: the calls made in the clean
   * session before anything was fetched are the work of the check proven there (its own time alone
   * would be the reading of them, ~0 ms).
   */
  creditCleanSessionWork(ms: number): void {
    for (const state of this.states) if (state.check.provenIn === 'clean') state.cleanSessionMs += Math.round(ms);
  }

  /** Starts every check that does not read the traffic; resolves when all of them have ended. */
  runChecks(): Promise<void> {
    return Promise.all(this.states.filter((s) => !readsTraffic(s.check)).map((s) => this.runOne(s))).then(() => {});
  }

  /** The checks that read every exchange of the run, at the same time (none sends anything that another reads). */
  async runTrafficChecks(): Promise<void> {
    await Promise.all(this.states.filter((s) => readsTraffic(s.check)).map((s) => this.runOne(s)));
  }

  /** Work the checks left for the end of the run, each check's in order, checks at the same time. */
  async runDeferred(): Promise<void> {
    await Promise.all(
      this.states.map(async (state) => {
        const ctx = state.ctx;
        if (!ctx?.deferred.length || state.outcome.skipped || state.outcome.errored) return;
        const started = performance.now();
        const outcome = await runWork(
          ctx,
          async () => {
            for (const work of ctx.deferred) await work();
          },
          checkLimit(this.deadline),
          state.check.plugin,
        );
        state.outcome = { ...state.outcome, ...outcome };
        state.durationMs += Math.round(performance.now() - started);
      }),
    );
  }

  /** The sessions the checks opened and kept for the end of the run. */
  async closeSessions(): Promise<void> {
    await Promise.all(this.states.map((s) => s.ctx?.closeAll() ?? Promise.resolve()));
  }

  /** The sinks of the checks that ran to the end (the model's findings join them). */
  sinkOf(checkId: string): LiveContext | undefined {
    const state = this.states.find((s) => s.check.id === checkId);
    return state?.ctx && !state.outcome.skipped && !state.outcome.errored ? state.ctx : undefined;
  }

  /**
   * Every check's result, in registry order, built once from its sink and outcome; the checks named
   * in `notApplicable` are said not to apply in this run's era, whatever they found.
   */
  results(notApplicable: readonly string[] = []): CheckResult[] {
    return this.states.map((s) => {
      if (notApplicable.includes(s.check.id) && !s.runnerResult)
        return runnerResult(s.check, 'skip', 'info', 'not-applicable-era', { era: this.run.target.era });
      if (s.runnerResult) return s.runnerResult;
      const findings = s.ctx?.findings ?? [];
      let status = statusOf(s.outcome, findings);
      // A criterion passes only on what proves it (DESIGN, "A pass is a proof"): without a proof it is
      // not proven. (A SHOULD criterion's failures are warnings: those need no proof.)
      const passing = status === 'pass' || (status === 'warn' && checkSeverity(s.check) === 'error');
      if (s.check.spec.criterion !== undefined && s.ctx && passing && !s.ctx.proof) {
        const why = s.ctx.missingProof ?? { code: 'not-proven', args: {} };
        s.ctx.add('info', why.code, why.args);
        status = 'skip';
      }
      const result = resultOf(s.check, status, findings, s.durationMs + s.cleanSessionMs);
      return s.ctx?.proof && status !== 'skip' ? { ...result, proof: s.ctx.proof } : result;
    });
  }

  private async runOne(state: CheckState): Promise<void> {
    try {
      await this.runCheck(state);
    } finally {
      // Its turn in the shared session is over, whether it ran or not: the next check's begins.
      this.run.shared?.release(state.check.id);
    }
  }

  private async runCheck(state: CheckState): Promise<void> {
    const { check } = state;
    if (check.needs === 'http' && this.run.target.kind !== 'http') {
      state.runnerResult = runnerResult(check, 'skip', 'info', 'needs-http', { kind: this.run.target.kind });
      return;
    }
    if (check.eras && !check.eras.includes(this.run.target.era)) {
      state.runnerResult = runnerResult(check, 'skip', 'info', 'needs-era', {
        eras: check.eras.join(' and '),
        era: this.run.target.era,
      });
      return;
    }
    // A fact not there by the deadline leaves the check not run, whatever the clock says when the
    // timer fires (a timer may fire a hair before performance.now() reaches the deadline).
    let factsThere = true;
    for (const fact of check.reads ?? []) {
      if (!(await this.until(this.waitFor(fact)))) {
        factsThere = false;
        break;
      }
    }
    if (this.deadline && (!factsThere || performance.now() >= this.deadline.at)) {
      state.runnerResult = runnerResult(check, 'error', 'error', 'not-run', { seconds: this.deadline.seconds });
      return;
    }
    // Once the calls before any fetch show a sessionless era, its session criteria are not run: they do not apply.
    if (SESSION_CRITERIA.includes(check.id) && check.reads?.includes('unfetched-calls') && this.run.sessionless()) {
      state.runnerResult = runnerResult(check, 'skip', 'info', 'not-applicable-era', { era: this.run.target.era });
      return;
    }
    this.hooks.onCheckStart?.(check, this.started++, this.states.length);
    const ctx = new LiveContext(this.run, check, check.messages, checkSeverity(check), [
      ...(this.labels.get(check.id) ?? []),
    ]);
    state.ctx = ctx;
    const started = performance.now();
    state.outcome = await runWork(ctx, () => check.run(ctx), checkLimit(this.deadline), check.plugin);
    state.durationMs = Math.round(performance.now() - started);
    // Sessions a check keeps for work at the end of the run stay open until then.
    if (!ctx.deferred.length || state.outcome.skipped || state.outcome.errored) await ctx.closeAll();
    this.hooks.onCheckEnd?.(check);
  }

  private waitFor(fact: Fact): Promise<unknown> {
    return fact === 'traffic' ? Promise.resolve() : this.run.ready(fact);
  }

  /** Whether `work` ended before the run's time was up. */
  private async until(work: Promise<unknown>): Promise<boolean> {
    if (!this.deadline) return work.then(() => true);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, this.deadline!.at - performance.now()));
    });
    try {
      return await Promise.race([work.then(() => true), late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A result made by the runner itself (the check did not run): one finding of a shared code. */
function runnerResult(
  check: LiveCheck,
  status: CheckResult['status'],
  level: FindingLevel,
  code: keyof typeof SHARED_MESSAGES,
  args: Record<string, unknown>,
): CheckResult {
  const sink = new FindingSink(SHARED_MESSAGES, level);
  sink.add(level, code, args);
  return resultOf(check, status, sink.findings, 0);
}
