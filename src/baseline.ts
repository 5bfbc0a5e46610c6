import { createHash } from 'node:crypto';
import type { BaselineEntry, CheckReport, CheckResult, Finding } from './generated/report.js';
import type { Baseline } from './generated/baseline.js';
import { statusOf } from './runner.js';
import { summarize } from './report.js';

/**
 * A finding's identity across runs: check, level, location, and the message with what varies
 * between runs removed (session labels s1…s9, numbers such as counts and durations).
 */
export function fingerprint(checkId: string, f: Finding): string {
  const where = [f.location?.tool, f.location?.file, f.location?.pointer].map((x) => x ?? '').join('|');
  const message = f.message.replace(/\bs\d+\b(?:(?:, | and )s\d+\b)*/g, 's#').replace(/\d+/g, '#');
  return createHash('sha256').update([checkId, f.level, where, message].join('\n')).digest('hex').slice(0, 16);
}

/** Findings a baseline can accept: errors and warnings (info lines never fail a gate). */
function gating(r: CheckResult): Finding[] {
  return r.findings.filter((f) => f.level !== 'info');
}

export function baselineFrom(report: CheckReport): Baseline {
  const accepted: BaselineEntry[] = [];
  const seen = new Set<string>();
  for (const r of report.results) {
    for (const f of gating(r)) {
      const fp = fingerprint(r.id, f);
      if (seen.has(fp)) continue;
      seen.add(fp);
      accepted.push({ check: r.id, fingerprint: fp, message: f.message });
    }
  }
  return { baselineVersion: 1, accepted };
}

/**
 * Marks the findings the baseline accepts and recomputes each check's status without them, so
 * only new findings fail the gate; entries no finding matched are returned as stale.
 */
export function applyBaseline(report: CheckReport, baseline: Baseline, file: string): CheckReport {
  const byFingerprint = new Map(baseline.accepted.map((e) => [e.fingerprint, e]));
  const matched = new Set<string>();
  let accepted = 0;
  const results = report.results.map((r) => {
    if (r.status === 'skip' || r.status === 'error') return r;
    const findings = r.findings.map((f) => {
      if (f.level === 'info') return f;
      const fp = fingerprint(r.id, f);
      if (!byFingerprint.has(fp)) return f;
      matched.add(fp);
      accepted++;
      return { ...f, accepted: true };
    });
    return { ...r, findings, status: statusOf(findings.filter((f) => !f.accepted)) };
  });
  const stale = baseline.accepted.filter((e) => !matched.has(e.fingerprint));
  return { ...report, results, summary: summarize(results), baseline: { file, accepted, stale } };
}
