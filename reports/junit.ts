import { scoreSentence } from '../src/core/score-sentence.js';
import type { CheckReport, CheckResult, Finding } from '../src/generated/report.js';
import { budgetsOf, resultName, targetLine } from './group.js';
import { budgetSentence, reportVerdictSentence } from '../src/core/verdict-sentence.js';
import { inlineJson } from '../src/util/text.js';
import { noAnswerText } from './exchange-text.js';

/** XML 1.0 text: escaped, and without the characters XML cannot carry at all. */
export function xml(text: string): string {
  return text
    .replace(
      /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu,
      (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`,
    )
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function describe(f: Finding): string {
  const where = f.location?.file
    ? `${f.location.file}:${f.location.line ?? 1}:${f.location.column ?? 1} `
    : f.location?.tool
      ? `[${f.location.tool}] `
      : '';
  const lines = [`${f.level} [${f.code}]: ${where}${f.message}`];
  if (f.hint) lines.push(`  fix: ${f.hint}`);
  for (const ex of f.transcript?.slice(-4) ?? []) {
    lines.push(`  ${ex.session} → ${ex.method} ${inlineJson((ex.request as { params?: unknown }).params ?? {}, 300)}`);
    lines.push(`  ${ex.session} ← ${ex.response ? inlineJson(ex.response, 300) : noAnswerText(ex)}`);
  }
  return lines.join('\n');
}

function testcase(report: CheckReport, r: CheckResult): string {
  const open = `    <testcase classname="${xml(r.id.split('-')[0])}" name="${xml(`${resultName(report, r)}: ${r.title}`)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
  const problems = r.findings.filter((f) => f.level !== 'info');
  const body = problems.map(describe).join('\n\n');
  const first = xml(problems[0]?.message ?? '');
  // The failure type is the first finding's code: stable, unlike the message.
  const type = xml(problems[0]?.code ?? r.spec.level);
  switch (r.status) {
    case 'fail':
      return `${open}>\n      <failure message="${first}" type="${type}">${xml(body)}</failure>\n    </testcase>`;
    case 'error':
      return `${open}>\n      <error message="${first}">${xml(body)}</error>\n    </testcase>`;
    case 'skip':
      return `${open}>\n      <skipped message="${xml(r.findings[0]?.message ?? 'skipped')}"/>\n    </testcase>`;
    // JUnit has no warning: a warned check passes, its warnings go to system-out.
    case 'warn':
      return `${open}>\n      <system-out>${xml(body)}</system-out>\n    </testcase>`;
    default:
      return `${open}/>`;
  }
}

/** JUnit XML: one testcase per check. */
export function renderJunit(report: CheckReport): string {
  return renderJunitSuites([{ report }]);
}

/**
 * Several reports as one JUnit file: a testsuite each (a fleet run: one per server). A server that
 * was not checked (`unchecked`) is a suite of one errored testcase, so that no server is lost.
 */
export function renderJunitSuites(
  suites: Array<{ name?: string; report: CheckReport }>,
  unchecked: Array<{ name: string; error: string; skipped?: boolean }> = [],
): string {
  // A server not checked is an error; one skipped by intent (a registry entry marked deleted), a skipped test.
  const counts = (reports: CheckReport[], notChecked = 0, skippedServers = 0) => {
    const sum = (k: 'failed' | 'errors' | 'skipped') => reports.reduce((n, r) => n + r.summary[k], 0);
    const time = reports.reduce((n, r) => n + r.durationMs, 0) / 1000;
    return `tests="${reports.reduce((n, r) => n + r.results.length, 0) + notChecked + skippedServers}" failures="${sum('failed')}" errors="${sum('errors') + notChecked}" skipped="${sum('skipped') + skippedServers}" time="${time.toFixed(3)}"`;
  };
  const skippedServers = unchecked.filter((u) => u.skipped).length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mcp-pd-check" ${counts(
      suites.map((s) => s.report),
      unchecked.length - skippedServers,
      skippedServers,
    )}>`,
  ];
  for (const { name, report } of suites) {
    const t = report.target;
    const suite = name ?? `mcp-pd-check ${targetLine(t).what}`;
    // The verdict and the client budgets, said once for the suite (a passing testcase has no body).
    const said = [
      report.verdict ? reportVerdictSentence(report) : '',
      budgetsOf(report) ? budgetSentence(budgetsOf(report)!) : '',
      report.score ? `Score: ${scoreSentence(report.score, report.options?.minScore)}` : '',
    ].filter(Boolean);
    lines.push(
      `  <testsuite name="${xml(suite)}" ${counts([report])} timestamp="${xml(report.startedAt)}">`,
      ...(report.score ? [`    <properties><property name="score" value="${report.score.server}"/></properties>`] : []),
      ...report.results.map((r) => testcase(report, r)),
      ...(said.length ? [`    <system-out>${xml(said.join('\n'))}</system-out>`] : []),
      '  </testsuite>',
    );
  }
  for (const { name, error, skipped } of unchecked) {
    lines.push(
      `  <testsuite name="${xml(name)}" ${skipped ? counts([], 0, 1) : counts([], 1)}>`,
      `    <testcase classname="mcp-pd-check" name="${xml(`${name}: ${skipped ? 'skipped' : 'not checked'}`)}" time="0.000">`,
      skipped ? `      <skipped message="${xml(error)}"/>` : `      <error message="${xml(error)}"/>`,
      '    </testcase>',
      '  </testsuite>',
    );
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
