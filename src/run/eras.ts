import { scoreOf } from '../core/score.js';
import { summarize } from '../core/build-report.js';
import { erasSentence, type VerdictData } from '../core/verdict-sentence.js';
import type { CheckReport, EraRun, Verdict } from '../generated/report.js';
import { ERAS, LEGACY_ERA, MODERN_ERA, type Era } from '../transport/era.js';
import type { McpSession } from '../transport/session.js';
import { EraRefusedError, ServerFailedError } from '../transport/session-opening.js';
import { TargetUnavailableError, type Target } from '../transport/target.js';

/** Which eras to check: every one the server speaks, or one. */
export type ProtocolChoice = 'all' | Era;

/** The choice, and why the eras it leaves out are out when --protocol did not say so itself (another option did). */
export interface EraChoice {
  choice: ProtocolChoice;
  /** Why the other eras are left out (default: --protocol leaves them out). */
  leftOutBecause?: string;
}

/** One era tried: its target, and its open probe session, or why it is not checked. */
export interface EraProbe {
  era: Era;
  target: Target;
  session?: McpSession;
  why?: string;
  /** What the opening request met, when it did not open. */
  error?: Error;
}

/**
 * Finds out which eras a target speaks by opening a probe session in each era asked for, all at
 * once (over stdio, one process each): the sessions that open become the runs' probes. An era is
 * not spoken only on the server's word (a refusal, an error, a closed connection): each probe has
 * its own start-up allowance (--startup-timeout) from its own start, however soon another era
 * answered — a start that costs CPU, beside another era's start on a busy machine, is late, not a
 * refusal. Each era's outcome settles on its own, so the first era's run need not wait for the others.
 */
export function probeEras(makeTarget: (era: Era) => Target, choice: ProtocolChoice): Array<Promise<EraProbe>> {
  return probeOrder(choice).map(async (era) => {
    const probe: EraProbe = { era, target: makeTarget(era) };
    await probe.target.open('probe').then(
      (session) => {
        probe.session = session;
      },
      (err: Error) => {
        probe.why =
          err instanceof ServerFailedError
            ? `the server failed its opening request: ${err.message}`
            : `the server does not speak it: ${err.message}`;
        probe.error = err;
      },
    );
    if (!probe.session) await probe.target.dispose();
    return probe;
  });
}

/** The eras a choice tries, in the order they are checked. */
export function probeOrder(choice: ProtocolChoice): readonly Era[] {
  return choice === 'all' ? ERAS : [choice];
}

/**
 * Why no era could be checked, as one error: a server that is down is said as such; one that
 * refused every era asked for, with each reason.
 */
export function noEraError(probes: readonly EraProbe[]): Error {
  const down = probes.map((p) => p.error).find((e) => e && !(e instanceof EraRefusedError));
  if (down) return down;
  if (probes.length === 1) {
    const only = probes[0];
    // A transport asked for that the server does not offer is said as such (its message says what to do).
    if (only.error?.message.includes('--transport sse')) return only.error;
    const other = only.era === LEGACY_ERA ? MODERN_ERA : LEGACY_ERA;
    return new TargetUnavailableError(
      `${only.error?.message ?? 'it did not answer'} (it may speak ${other} only: --protocol all checks whichever era it speaks)`,
    );
  }
  return new TargetUnavailableError(
    `the server speaks neither protocol era: ${probes.map((p) => `${p.era}: ${p.error?.message ?? 'no answer'}`).join('; ')}`,
  );
}

/** Every era: checked (with its verdict), or why not (not spoken, out of time, left out by --protocol). */
function eraRuns(
  probes: readonly EraProbe[],
  choice: ProtocolChoice,
  verdicts: readonly Verdict[],
  leftOutBecause?: string,
): EraRun[] {
  return ERAS.map((era) => {
    const probe = probes.find((p) => p.era === era);
    if (!probe) return { era, checked: false, why: leftOutBecause ?? `--protocol ${choice} leaves it out` };
    if (!probe.session) return { era, checked: false, why: probe.why ?? 'not checked' };
    const verdict = verdicts.find((v) => v.era === era);
    return { era, checked: true, ...(verdict ? { verdict } : {}) };
  });
}

const RANK = { no: 0, partly: 1, yes: 2 } as const;

/**
 * One report from the reports of each era checked: every result and every exchange names its era;
 * the verdict is the weakest era's word, its sentence says each era's own.
 */
export function mergeEraReports(
  reports: ReadonlyArray<{ era: Era; report: CheckReport }>,
  probes: readonly EraProbe[],
  choice: ProtocolChoice,
  durationMs: number,
  leftOutBecause?: string,
): CheckReport {
  const first = reports[0].report;
  const results = reports.flatMap(({ era, report }) => report.results.map((r) => ({ ...r, era })));
  const verdicts: Verdict[] = reports.flatMap(({ era, report }) =>
    report.verdict ? [{ ...report.verdict, era }] : [],
  );
  const merged: CheckReport = {
    ...first,
    eras: eraRuns(probes, choice, verdicts, leftOutBecause),
    results,
    summary: summarize(results),
    durationMs: Math.round(durationMs),
  };
  if (reports.length > 1) {
    merged.target = { ...first.target, protocolVersion: reports.map((r) => r.era).join(' and ') };
  }
  // One score for every era's findings: a problem found in both counts once.
  delete merged.score;
  const score = scoreOf(results, first.score && [...first.score.perfect, ...first.score.tools.map((t) => t.tool)]);
  if (score) merged.score = score;
  delete merged.verdict;
  if (verdicts.length === 1) merged.verdict = verdicts[0];
  else if (verdicts.length > 1) merged.verdict = combinedVerdict(verdicts);
  return merged;
}

/** The verdict over every era: the weakest word, what fails in any era, and a sentence per era. */
function combinedVerdict(verdicts: Verdict[]): Verdict {
  const weakest = verdicts.reduce((a, b) => (RANK[b.implements] < RANK[a.implements] ? b : a));
  const union = (pick: (v: Verdict) => readonly string[] | undefined) => [
    ...new Set(verdicts.flatMap((v) => pick(v) ?? [])),
  ];
  const failing = union((v) => v.failing);
  const data: VerdictData = {
    ...verdicts[0],
    implements: weakest.implements,
    failing,
    failingCriteria: failing.map(
      (id) => verdicts.map((v) => v.failingCriteria?.[v.failing.indexOf(id)]).find((n) => n !== undefined) ?? 0,
    ),
    notTestable: union((v) => v.notTestable),
  };
  // A tool is "not called" only when no era called it (one era may have left it to the other: the same call again).
  const notCalled = (verdicts[0].notCalled ?? []).filter((n) =>
    verdicts.every((v) => v.notCalled?.some((m) => m.tool === n.tool)),
  );
  if (notCalled.length) data.notCalled = notCalled;
  else delete data.notCalled;
  delete data.era;
  delete data.notApplicable;
  return { ...data, summary: erasSentence(verdicts) };
}

/**
 * The first era the server speaks, of those asked for (2025-11-25 first), with its open probe
 * session; the other eras' targets are let go as soon as it is known (one not needed is not waited
 * for). For what reads a server once (init, serve).
 */
export async function openFirstEra(
  makeTarget: (era: Era) => Target,
  choice: ProtocolChoice,
): Promise<{ target: Target; session: McpSession }> {
  const targets: Target[] = [];
  const outcomes = probeEras((era) => targets[targets.push(makeTarget(era)) - 1], choice);
  const probes: EraProbe[] = [];
  for (const [i, outcome] of outcomes.entries()) {
    const probe = await outcome;
    probes.push(probe);
    if (!probe.session) continue;
    // The later eras' probes end now, answered or not (their outcomes settle as closed).
    await Promise.all(targets.slice(i + 1).map((t) => t.dispose()));
    await Promise.allSettled(outcomes.slice(i + 1));
    return { target: probe.target, session: probe.session };
  }
  throw noEraError(probes);
}
