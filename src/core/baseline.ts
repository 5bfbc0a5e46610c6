import { MODERN_ERA } from '../transport/era.js';
import { createRequire } from 'node:module';
import type { BaselineEntry, CheckReport, CheckResult, Finding } from '../generated/report.js';
import type { Baseline } from '../generated/baseline.js';
import { statusOf } from './execute.js';
import { summarize } from './build-report.js';
import type * as Crypto from 'node:crypto';

/**
 * A finding's identity across runs: its check, its code and where it is (tool, or file and JSON
 * pointer). Never its text: rewording a message, or a count that changes, keeps every baseline.
 */
export function fingerprint(checkId: string, f: Pick<Finding, 'code' | 'location'>, era?: string): string {
  const where = [f.location?.tool, f.location?.file, f.location?.pointer].map((x) => x ?? '').join('|');
  // A finding of the 2026-07-28 era is its own; those of 2025-11-25 keep the fingerprints baselines were written with.
  const parts = era === MODERN_ERA ? [checkId, f.code, where, era] : [checkId, f.code, where];
  return sha256().update(parts.join('\n')).digest('hex').slice(0, 16);
}

let createHash: typeof Crypto.createHash | undefined;

/** node:crypto on first use (once): importing it costs ~3 ms of every start, and most runs have no baseline. */
function sha256(): Crypto.Hash {
  createHash ??= (createRequire(import.meta.url)('node:crypto') as typeof Crypto).createHash;
  return createHash('sha256');
}

/** The version of the baseline file format this checker reads and writes. */
export const BASELINE_VERSION = 2;

/** Findings a baseline can accept: errors and warnings (info lines never fail a gate). */
function gating(r: CheckResult): Finding[] {
  return r.findings.filter((f) => f.level !== 'info');
}

export function baselineFrom(report: CheckReport): Baseline {
  const accepted: BaselineEntry[] = [];
  const seen = new Set<string>();
  for (const r of report.results) {
    for (const f of gating(r)) {
      const fp = fingerprint(r.id, f, r.era);
      if (seen.has(fp)) continue;
      seen.add(fp);
      accepted.push({ check: r.id, code: f.code, fingerprint: fp, message: f.message });
    }
  }
  return { baselineVersion: BASELINE_VERSION, accepted };
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
      const fp = fingerprint(r.id, f, r.era);
      if (!byFingerprint.has(fp)) return f;
      matched.add(fp);
      accepted++;
      return { ...f, accepted: true };
    });
    return {
      ...r,
      findings,
      status: statusOf(
        {},
        findings.filter((f) => !f.accepted),
      ),
    };
  });
  const stale = baseline.accepted.filter((e) => !matched.has(e.fingerprint));
  return { ...report, results, summary: summarize(results), baseline: { file, accepted, stale } };
}
