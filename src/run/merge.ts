import type { FindingSink } from '../core/findings.js';
import type { Found } from '../model/explore/shortest.js';
import type { Judgement } from '../model/judge.js';
import { CRITERION, type RuleBreak } from '../model/world.js';

/** Past this many findings of one code, a check's result says how many more there were. */
const MAX_PER_CODE = 20;

/** The sink of a check that ran to its end (undefined: not selected, skipped or broken — it gets nothing). */
export type SinkOf = (checkId: string) => FindingSink | undefined;

/** A finding's identity for merging: the same rule broken on the same tool is one finding. */
function keyOf(code: string, tool: string | undefined): string {
  return `${code}\u0000${tool ?? ''}`;
}

/**
 * The model's conclusions become findings of the checks that own the rules, in their own sinks:
 * each broken rule once per tool (its first occurrence, with its proof), after what the check
 * found itself.
 */
export function mergeJudgement(sinkOf: SinkOf, judgement: Judgement): void {
  const byCheck = new Map<string, RuleBreak[]>();
  for (const b of judgement.breaks) (byCheck.get(b.check) ?? byCheck.set(b.check, []).get(b.check)!).push(b);
  const info = (check: string, code: string, forms: Set<string>) => {
    if (forms.size)
      (byCheck.get(check) ?? byCheck.set(check, []).get(check)!).push({
        check,
        code,
        args: { forms: [...forms].join(', ') },
        level: 'info',
        proof: [],
      });
  };
  info(CRITERION.refusal, 'refusals-form', judgement.refusalForms);
  info(CRITERION.missing, 'signalled-as', judgement.missingForms);
  for (const [id, breaks] of byCheck) {
    const sink = sinkOf(id);
    if (!sink) continue;
    const seen = new Set(sink.findings.map((f) => keyOf(f.code, f.location?.tool)));
    const counts = new Map<string, number>();
    for (const b of breaks) {
      const key = keyOf(b.code, b.tool);
      if (seen.has(key)) continue;
      seen.add(key);
      const n = (counts.get(b.code) ?? 0) + 1;
      counts.set(b.code, n);
      if (n > MAX_PER_CODE) continue;
      sink.problem(
        { code: b.code, pointer: '', args: b.args, level: b.level },
        { ...(b.tool !== undefined ? { location: { tool: b.tool } } : {}), transcript: b.proof },
      );
    }
    for (const [code, n] of counts)
      if (n > MAX_PER_CODE) sink.add('info', 'more-findings', { count: n - MAX_PER_CODE, code });
  }
  // What proves criteria 6-8, or why nothing does (each check's result needs one to pass).
  for (const p of judgement.proofs) {
    const sink = sinkOf(p.check);
    if (!sink) continue;
    if ('missing' in p) sink.unprovenBecause(p.missing, p.args);
    else sink.prove(p.code, p.args, p.proof);
  }
  // What proved nothing is said too, once per subject, so that a slow tool is seen for what it is.
  const said = new Set<string>();
  for (const i of judgement.inconclusive) {
    const sink = sinkOf(i.check);
    const subject = i.subject[0].toUpperCase() + i.subject.slice(1);
    const key = `${i.check}\u0000${subject}`;
    if (!sink || said.has(key) || sink.findings.some((f) => f.code === 'inconclusive' && f.args.subject === subject))
      continue;
    said.add(key);
    sink.add(
      'info',
      'inconclusive',
      { subject, note: i.note },
      { ...(i.tool !== undefined ? { location: { tool: i.tool } } : {}), transcript: i.proof },
    );
  }
}

/**
 * The exploration's findings join the checks that own the rules: beside a finding of the same code
 * (its shortest sequence attached), or as a finding of their own.
 */
export function mergeExploration(sinkOf: SinkOf, found: readonly Found[]): void {
  for (const f of found) {
    const sink = sinkOf(f.check);
    if (!sink) continue;
    if (sink.attachSequence(f.code, { ...f.sequence, transcript: f.proof }, f.tool)) continue;
    sink.problem(
      { code: f.code, pointer: '', args: f.args, level: f.level },
      { ...(f.tool !== undefined ? { location: { tool: f.tool } } : {}), transcript: f.proof, sequence: f.sequence },
    );
  }
}
