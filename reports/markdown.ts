import { scoreSentence } from '../src/core/score-sentence.js';
import { budgetSentence, reachSentence, reportVerdictSentence } from '../src/core/verdict-sentence.js';
import type { CheckReport, Finding } from '../src/generated/report.js';
import { sanitizeLine } from '../src/util/text.js';
import { exchangesAsText, sequenceLines } from './exchange-text.js';
import {
  budgetsOf,
  countsLine,
  entries,
  notCalledSentences,
  reachOf,
  othersLine,
  resultName,
  shownStatus,
  tableResults,
  targetLine,
} from './group.js';

const ICON: Record<string, string> = {
  pass: '✅',
  fail: '❌',
  warn: '⚠️',
  skip: '⏭️',
  error: '💥',
  accepted: '☑️ accepted',
};
const VERDICT = { yes: '✅ yes', partly: '⚠️ partly', no: '❌ no' };

/** Text for a Markdown table cell or line: no HTML, no table breaks, no line breaks. */
function cell(text: string): string {
  return sanitizeLine(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/([\\`*_[\]#])/g, '\\$1');
}

/** A fenced block that the content cannot close: the fence is longer than any backtick run inside. */
function fenced(raw: string, lang = ''): string {
  // JSON escapes control characters already; bidi and zero-width ones would still reorder lines.
  const text = raw.replace(
    /[\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

function transcript(f: Finding): string {
  if (!f.transcript?.length) return '';
  const body = exchangesAsText(f.transcript, '// ');
  return `\n<details><summary>JSON-RPC exchange</summary>\n\n${fenced(body.length > 20_000 ? `${body.slice(0, 20_000)}\n…` : body, 'jsonc')}\n\n</details>\n`;
}

/** Markdown for $GITHUB_STEP_SUMMARY: a table of checks, then each failure with its exchange folded. */
export function renderMarkdown(report: CheckReport, verbose = false, depth = 2, title = 'mcp-pd-check'): string {
  const h = '#'.repeat(depth);
  const s = report.summary;
  const t = report.target;
  const target = targetLine(t);
  const v = report.verdict;
  const out = [
    `${h} ${title}: ${s.failed + s.errors ? '❌' : s.warnings ? '⚠️' : '✅'} ${countsLine(s, report.results)}`,
    '',
    ...(v ? [`**Progressive disclosure: ${VERDICT[v.implements]}** — ${cell(reportVerdictSentence(report))}`, ''] : []),
    ...notCalledSentences(v?.notCalled ?? [], (tools) => tools.join(', ')).flatMap((s) => [
      `${s.heading[0].toUpperCase()}${s.heading.slice(1)}: ${cell(s.text)}.`,
      '',
    ]),
    ...(reachOf(report) ? [`Reach: ${cell(reachSentence(reachOf(report)!))}`, ''] : []),
    ...(budgetsOf(report) ? [`${cell(budgetSentence(budgetsOf(report)!))}`, ''] : []),
    ...(report.score ? [`**Score:** ${cell(scoreSentence(report.score, report.options?.minScore))}`, ''] : []),
    `Target: ${cell(target.what)} (${target.kind})${t.serverInfo?.name ? `, server ${cell(`${t.serverInfo.name} ${t.serverInfo.version ?? ''}`)}` : ''}`,
    '',
    '| | check | spec | findings |',
    '| --- | --- | --- | --- |',
    ...tableResults(report).map(
      (r) =>
        `| ${ICON[shownStatus(r)]} | \`${resultName(report, r)}\` ${cell(r.title)} | §${cell(r.spec.section)} ${r.spec.level} | ${r.findings.filter((f) => f.level !== 'info').length} |`,
    ),
  ];
  const problems = report.results.filter(
    (r) => r.status === 'fail' || r.status === 'error' || r.status === 'warn' || shownStatus(r) === 'accepted',
  );
  for (const r of problems) {
    out.push('', `${h}# ${ICON[shownStatus(r)]} \`${resultName(report, r)}\``, '');
    for (const e of entries(
      r.findings.filter((f) => f.level !== 'info'),
      verbose,
      { files: true },
    )) {
      const f = e.finding;
      const where = f.location?.file
        ? ` ${cell(`${f.location.file}:${f.location.line ?? 1}`)}`
        : f.location?.tool
          ? ` [${cell(f.location.tool)}]`
          : '';
      const others = e.others.length ? `<br>…${cell(othersLine(e))}` : '';
      const [heading, ...steps] = sequenceLines(f);
      const sequence = heading ? `<br>${cell(heading)}<br>${steps.map(cell).join('<br>')}` : '';
      out.push(
        `- **${f.level}**${f.accepted ? ' (accepted by baseline)' : ''}${where}: ${cell(f.message)}${others}${f.hint ? `<br>Fix: ${cell(f.hint)}` : ''}${sequence}${transcript(f)}`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}
