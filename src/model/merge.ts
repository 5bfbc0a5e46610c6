import type { LiveCheck } from '../core/check.js';
import { FindingSink, toTranscript } from '../core/findings.js';
import type { Found } from './explore/explore.js';
import { severityOf } from '../core/check.js';
import type { CheckResult } from '../generated/report.js';
import type { Judgement } from './judge.js';
import { CRITERION, type RuleBreak } from './world.js';

/** Past this many findings of one code, a check's result says how many more there were. */
const MAX_PER_CODE = 20;

/** A finding's identity for merging: the same rule broken on the same tool is one finding. */
function keyOf(code: string, tool: string | undefined): string {
  return `${code}\u0000${tool ?? ''}`;
}

/**
 * The model's conclusions become findings of the checks that own the rules: each broken rule once
 * per tool (its first occurrence, with its proof), after what the check found itself; a result
 * that was skipped or could not run is left as it is, and a check not selected gets nothing.
 * Returns the findings added, by check and key (to attach a shortest sequence to later).
 */
export function mergeJudgement(checks: readonly LiveCheck[], results: Map<string, CheckResult>, judgement: Judgement): Map<string, Map<string, number>> {
  const added = new Map<string, Map<string, number>>();
  const byCheck = new Map<string, RuleBreak[]>();
  for (const b of judgement.breaks) (byCheck.get(b.check) ?? byCheck.set(b.check, []).get(b.check)!).push(b);
  const info = (check: string, code: string, forms: Set<string>) => {
    if (forms.size) (byCheck.get(check) ?? byCheck.set(check, []).get(check)!).push({ check, code, args: { forms: [...forms].join(', ') }, level: 'info', proof: [] });
  };
  info(CRITERION.refusal, 'refusals-form', judgement.refusalForms);
  info(CRITERION.missing, 'signalled-as', judgement.missingForms);
  for (const [id, breaks] of byCheck) {
    const check = checks.find((c) => c.id === id);
    const result = results.get(id);
    if (!check || !result || result.status === 'skip' || result.status === 'error') continue;
    const sink = new FindingSink(check.messages, severityOf(check.spec.level));
    const seen = new Set(result.findings.map((f) => keyOf(f.code, f.location?.tool)));
    const counts = new Map<string, number>();
    const positions = new Map<string, number>();
    for (const b of breaks) {
      const key = keyOf(b.code, b.tool);
      if (seen.has(key)) continue;
      seen.add(key);
      const n = (counts.get(b.code) ?? 0) + 1;
      counts.set(b.code, n);
      if (n > MAX_PER_CODE) continue;
      positions.set(key, result.findings.length + sink.findings.length);
      sink.problem({ code: b.code, pointer: '', args: b.args, level: b.level }, { ...(b.tool !== undefined ? { location: { tool: b.tool } } : {}), transcript: b.proof });
    }
    for (const [code, n] of counts) if (n > MAX_PER_CODE) sink.add('info', 'more-findings', { count: n - MAX_PER_CODE, code });
    result.findings.push(...sink.findings);
    if (result.status === 'pass' || result.status === 'warn') {
      result.status = result.findings.some((f) => f.level === 'error') ? 'fail' : result.findings.some((f) => f.level === 'warning') ? 'warn' : 'pass';
    }
    added.set(id, positions);
  }
  return added;
}

/**
 * The exploration's findings join the checks that own the rules: beside a finding of the same code
 * (its shortest sequence attached), or as a finding of their own.
 */
export function mergeExploration(checks: readonly LiveCheck[], results: Map<string, CheckResult>, found: readonly Found[]): void {
  for (const f of found) {
    const check = checks.find((c) => c.id === f.check);
    const result = results.get(f.check);
    if (!check || !result || result.status === 'skip' || result.status === 'error') continue;
    const same = result.findings.find((x) => x.code === f.code && !x.sequence);
    if (same) {
      same.sequence = { ...f.sequence, transcript: toTranscript(f.proof) };
      continue;
    }
    const sink = new FindingSink(check.messages, severityOf(check.spec.level));
    sink.problem({ code: f.code, pointer: '', args: f.args, level: f.level }, { ...(f.tool !== undefined ? { location: { tool: f.tool } } : {}), transcript: f.proof, sequence: f.sequence });
    result.findings.push(...sink.findings);
    if (result.status === 'pass' || result.status === 'warn') {
      result.status = result.findings.some((x) => x.level === 'error') ? 'fail' : result.findings.some((x) => x.level === 'warning') ? 'warn' : 'pass';
    }
  }
}
