// The check tester (after ESLint's RuleTester): a live check run in-process against a server that
// lives in the test itself — the reference server with some behaviour replaced (over the SDK's
// in-memory transport), or a scripted JSON-RPC handler — with no process spawned. Each invalid
// case names the exact codes it must produce.
import type { Test } from 'tap';
import type { LiveCheck } from '../../src/run/check.js';
import type { LiveOptions } from '../../src/run/options.js';
import type { CheckReport, CheckResult } from '../../src/generated/report.js';
import { checkTarget } from '../../src/run/live.js';
import { runPlan } from '../../src/run/run-plan.js';
import { DEFAULT_EXPLORE } from '../../src/model/explore/defaults.js';
import { InProcessTarget, type InProcessServer, type Script } from '../../src/testing/in-process.js';

export type { InProcessServer, Script };

/** A fixed seed: the same exploration, and so the same findings, on every run of the tests. */
const DEFAULTS: LiveOptions = {
  timeoutMs: 2000,
  sessions: 3,
  safeCalls: false,
  require: [],
  seed: 20261123,
  explore: DEFAULT_EXPLORE,
};

/** Runs checks in-process against a server; the report is what the CLI would build. */
export function runInProcess(
  checks: readonly LiveCheck[],
  server: InProcessServer,
  options: Partial<LiveOptions> = {},
): Promise<CheckReport> {
  const live = { ...DEFAULTS, ...options };
  const target = new InProcessTarget(server, live.timeoutMs);
  return checkTarget(target, runPlan(checks, live, target.cheapSessions === true), {});
}

/** The distinct codes of a result's errors and warnings, sorted ('more-findings' only counts the rest). */
export function codesOf(result: CheckResult | undefined): string[] {
  return [
    ...new Set(
      (result?.findings ?? []).filter((f) => f.level !== 'info' && f.code !== 'more-findings').map((f) => f.code),
    ),
  ].sort();
}

export interface ValidCase {
  name: string;
  server: InProcessServer;
  options?: Partial<LiveOptions>;
  status?: 'pass' | 'skip';
}
export interface InvalidCase {
  name: string;
  server: InProcessServer;
  options?: Partial<LiveOptions>;
  codes: string[];
  /**
   * It breaks a rule of the model: the exploration shows the shortest sequence that breaks it (at most this many
   * steps).
   */
  shortest?: number;
  /** The check cannot be proven against it: it ends skipped with this reason (and `codes` is empty). */
  notProven?: string;
}

/**
 * Valid cases must pass (or skip, where said); each invalid case must produce exactly its codes
 * (errors and warnings), and every finding must render without a leftover placeholder.
 */
export async function testCheck(
  t: Test,
  check: LiveCheck,
  cases: { valid: ValidCase[]; invalid: InvalidCase[] },
): Promise<void> {
  for (const c of cases.valid) {
    const report = await runInProcess([check], c.server, c.options);
    const result = report.results[0];
    t.equal(result.status, c.status ?? 'pass', `${check.id} valid: ${c.name} (${JSON.stringify(codesOf(result))})`);
  }
  for (const c of cases.invalid) {
    const report = await runInProcess([check], c.server, c.options);
    const result = report.results[0];
    t.same(
      codesOf(result),
      [...c.codes].sort(),
      `${check.id} invalid: ${c.name} gives exactly ${c.codes.join(', ') || 'no failure'}`,
    );
    if (c.notProven) {
      t.equal(result.status, 'skip', `${check.id} invalid: ${c.name} is not proven`);
      t.ok(
        result.findings.some((f) => f.code === c.notProven),
        `${check.id} invalid: ${c.name} says why: ${c.notProven}`,
      );
    }
    if (c.shortest !== undefined) {
      const sequence = result.findings.find((f) => f.sequence)?.sequence;
      t.ok(
        sequence && sequence.steps.length <= c.shortest,
        `${check.id} invalid: ${c.name}: its shortest sequence has at most ${c.shortest} steps:\n${sequence?.steps.join('\n') ?? '(none)'}`,
      );
    }
    for (const f of result.findings) {
      t.notMatch(f.message, /\{[A-Za-z_]\w*(\|[^}]*)?\}/, `every placeholder is filled: ${f.message}`);
    }
  }
}
