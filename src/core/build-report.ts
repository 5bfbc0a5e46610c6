import type {
  CheckReport,
  CheckResult,
  ExplorationSummary,
  ReportOptions,
  ReportSummary,
  ReportTarget,
} from '../generated/report.js';
import { verdictSentence, type VerdictData } from './verdict-sentence.js';
import { scoreOf } from './score.js';
import { TOOL_NAME, TOOL_VERSION } from '../util/version.js';

export function summarize(results: CheckResult[]): ReportSummary {
  // A check that passes only because a baseline accepts its findings is accepted, never passed.
  const isAccepted = (r: CheckResult) => r.findings.some((f) => f.accepted && f.level !== 'info');
  const count = (s: CheckResult['status']) =>
    results.filter((r) => r.status === s && !(s === 'pass' && isAccepted(r))).length;
  const accepted = results.filter((r) => r.status === 'pass' && isAccepted(r)).length;
  return {
    passed: count('pass'),
    failed: count('fail'),
    warnings: count('warn'),
    skipped: count('skip'),
    errors: count('error'),
    ...(accepted ? { accepted } : {}),
  };
}

export function buildReport(input: {
  target: ReportTarget;
  startedAt: Date;
  durationMs: number;
  results: CheckResult[];
  options?: ReportOptions;
  verdict?: VerdictData;
  exploration?: ExplorationSummary;
  /** The tools the target has (listed, or in the files read): each gets a score, found wanting or not. */
  tools?: readonly string[];
}): CheckReport {
  const score = scoreOf(input.results, input.tools);
  const report: CheckReport = {
    // The JSON contract keeps the verdict's sentence beside its data; reporters render it themselves.
    ...(input.verdict ? { verdict: { ...input.verdict, summary: verdictSentence(input.verdict) } } : {}),
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    target: input.target,
    startedAt: input.startedAt.toISOString(),
    durationMs: Math.round(input.durationMs),
    summary: summarize(input.results),
    results: input.results,
  };
  if (score) report.score = score;
  if (input.options) report.options = input.options;
  if (input.exploration) report.exploration = input.exploration;
  return report;
}
