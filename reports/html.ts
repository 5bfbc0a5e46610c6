import { scoreSentence } from '../src/core/score-sentence.js';
import { budgetSentence, reachSentence, reportVerdictSentence } from '../src/core/verdict-sentence.js';
import type { CheckReport, CheckResult } from '../src/generated/report.js';
import { exchangesAsText, sequenceLines } from './exchange-text.js';
import {
  budgetsOf,
  entries,
  errorsPart,
  othersLine,
  reachOf,
  type Entry,
  resultName,
  shownStatus,
  targetLine,
} from './group.js';
import { plural } from '../src/util/text.js';

/** HTML text: every server- or file-provided string goes through here. */
function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
}

const COLOR: Record<string, string> = {
  pass: '#1a7f37',
  fail: '#cf222e',
  warn: '#9a6700',
  skip: '#6e7781',
  error: '#8250df',
  accepted: '#0969da',
};

/**
 * One bar pair per tool: the upper bar (full description, or today's entry) and the lower (tools/list, or the minimal
 * estimate).
 */
interface ToolTokens {
  tool: string;
  upper: number;
  lower: number;
  found?: number;
}

/**
 * The chart's rows and legend, from the verdict's token figures (measured, or estimated for a server without the
 * resource).
 */
function tokenData(report: CheckReport): { rows: ToolTokens[]; upper: string; lower: string } {
  const t = report.verdict?.tokens;
  if (!t) return { rows: [], upper: '', lower: '' };
  // Beside each tool's bars: how often its own sentences find it first by its minimal description.
  const found = new Map(
    (report.verdict?.selection?.tools ?? []).filter((x) => x.queries > 0).map((x) => [x.tool, x.top1]),
  );
  const of = (tool: string) => (found.has(tool) ? { found: found.get(tool)! } : {});
  if (t.estimate !== undefined) {
    return {
      rows: t.tools.map((x) => ({ tool: x.tool, upper: x.listed, lower: x.estimate ?? 0, ...of(x.tool) })),
      upper: 'tools/list today',
      lower: 'listed minimally (estimate)',
    };
  }
  return {
    rows: t.tools.map((x) => ({ tool: x.tool, upper: x.full ?? 0, lower: x.listed, ...of(x.tool) })),
    upper: 'full description',
    lower: 'tools/list (minimal)',
  };
}

/** Room right of the longest bar for its count, so that the "found first" column never overlaps it. */
const NUMBER_ROOM = 64;
/**
 * Label column: as wide as the longest tool name needs (about 7 px a character at 12 px), within these bounds; a longer
 * name is cut with … (its whole name in its tooltip).
 */
const LABEL_MIN = 120;
const LABEL_MAX = 300;
const CHAR_PX = 7;

/**
 * A bar chart as inline SVG: no script, no network. `id` is unique on the page. It scales to the
 * page's width (viewBox, max-width 100 %): a narrow window shows it smaller, never cut off.
 */
function chart({ rows, upper, lower }: ReturnType<typeof tokenData>, id: string): string {
  if (!rows.length) return '<p class="muted">No token figures: pd-token-savings did not run.</p>';
  const max = Math.max(...rows.map((r) => Math.max(r.lower, r.upper)), 1);
  const longest = Math.max(...rows.map((r) => r.tool.length));
  const label = Math.min(LABEL_MAX, Math.max(LABEL_MIN, longest * CHAR_PX + 12));
  const fits = Math.floor((label - 12) / CHAR_PX);
  const width = 520;
  const rowH = 34;
  const bars = rows
    .map((r, i) => {
      const y = 28 + i * rowH;
      const wLower = Math.max(1, Math.round((r.lower / max) * width));
      const wUpper = Math.max(1, Math.round((r.upper / max) * width));
      const name = r.tool.length > fits ? `${r.tool.slice(0, fits - 1)}…` : r.tool;
      const found =
        r.found !== undefined
          ? `<text x="${label + width + NUMBER_ROOM}" y="${y + 14}" class="found">found first ${Math.round(r.found * 100)} %</text>`
          : '';
      return (
        found +
        `<text x="${label - 8}" y="${y + 14}" text-anchor="end" class="tool"><title>${esc(r.tool)}</title>${esc(name)}</text>` +
        `<rect x="${label}" y="${y}" width="${wUpper}" height="12" fill="#d0d7de"><title>${esc(r.tool)}: ${upper} ${r.upper} tokens</title></rect>` +
        `<rect x="${label}" y="${y + 14}" width="${wLower}" height="12" fill="#1a7f37"><title>${esc(r.tool)}: ${lower} ${r.lower} tokens</title></rect>` +
        `<text x="${label + wUpper + 6}" y="${y + 10}" class="n">${r.upper}</text><text x="${label + wLower + 6}" y="${y + 24}" class="n">${r.lower}</text>`
      );
    })
    .join('');
  const h = 40 + rows.length * rowH;
  const w = label + width + NUMBER_ROOM + (rows.some((r) => r.found !== undefined) ? 120 : 0);
  return (
    `<svg id="${id}" class="token-chart" role="img" aria-label="Tokens per tool: ${upper} versus ${lower}" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" preserveAspectRatio="xMinYMin meet" xmlns="http://www.w3.org/2000/svg">` +
    `<rect x="${label}" y="4" width="12" height="12" fill="#d0d7de"/><text x="${label + 18}" y="14">${upper}</text>` +
    `<rect x="${label + 170}" y="4" width="12" height="12" fill="#1a7f37"/><text x="${label + 188}" y="14">${lower}</text>${bars}</svg>`
  );
}

function finding(e: Entry): string {
  const f = e.finding;
  const where = f.location?.file ? `${f.location.file}:${f.location.line ?? 1}` : (f.location?.tool ?? '');
  const ex = exchangesAsText(f.transcript ?? []);
  return (
    `<li class="${f.level}"><b>${f.level}${f.accepted ? ' (accepted)' : ''}</b>${where ? ` <code>${esc(where)}</code>` : ''} ${esc(f.message)}` +
    (e.others.length ? `<div class="muted">…${esc(othersLine(e, 20))}</div>` : '') +
    (f.hint ? `<div class="hint">Fix: ${esc(f.hint)}</div>` : '') +
    (f.sequence
      ? `<div class="sequence">${esc(sequenceLines(f)[0])}<ol>${f.sequence.steps.map((step) => `<li>${esc(step.replace(/^\d+\. /, ''))}</li>`).join('')}</ol></div>`
      : '') +
    (ex
      ? `<details><summary>JSON-RPC exchange</summary><pre>${esc(ex.length > 50_000 ? `${ex.slice(0, 50_000)}\n…` : ex)}</pre></details>`
      : '') +
    '</li>'
  );
}

/** The page around one report or a fleet's: no script, nothing from the network. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#1f2328}
h1{font-size:1.5rem}.muted{color:#6e7781;font-weight:normal;font-size:.85em}.badge{color:#fff;border-radius:4px;padding:1px 7px;font-size:.8em;text-transform:uppercase}
.summary span{margin-right:1.2rem}.verdict{padding:.6rem .8rem;border-radius:6px;border:1px solid #d0d7de}.verdict.yes{background:#dafbe1}.verdict.partly{background:#fff8c5}.verdict.no{background:#ffebe9}.check{border-top:1px solid #d0d7de;padding:.3rem 0}.check h3{font-size:1rem;margin:.5rem 0}
li.error b{color:#cf222e}li.warning b{color:#9a6700}li.info b{color:#6e7781}.hint{color:#0969da}pre{background:#f6f8fa;padding:.6rem;overflow:auto;max-height:30rem}
table.fleet{border-collapse:collapse}table.fleet td,table.fleet th{border:1px solid #d0d7de;padding:.2rem .6rem;text-align:left}
svg text{font-size:12px;fill:#1f2328}svg .n,svg .found{fill:#57606a}svg.token-chart{max-width:100%;height:auto}
nav.toc a{margin-right:1rem}details.group>summary{cursor:pointer;font-weight:600;margin:.6rem 0}code{word-break:break-word}
td.verdict-yes{background:#dafbe1}td.verdict-partly{background:#fff8c5}td.verdict-no,td.verdict-error{background:#ffebe9}td.verdict-skipped{color:#57606a}
</style></head><body>
${body}
</body></html>
`;
}

/**
 * One report's content: summary, verdict, the token chart, every check with its findings and proof.
 * `prefix` keeps element ids unique when several reports share a page (a fleet).
 */
export function reportHtml(report: CheckReport, verbose = false, prefix = '', heading = 'h1'): string {
  const s = report.summary;
  const t = report.target;
  const target = targetLine(t);
  const v = report.verdict;
  const sub = heading === 'h1' ? 'h2' : 'h3';
  const section = (r: CheckResult) =>
    `<section class="check"><h3><span class="badge" style="background:${COLOR[shownStatus(r)]}">${shownStatus(r)}</span> <code>${esc(resultName(report, r))}</code> ${esc(r.title)} <span class="muted">§${esc(r.spec.section)} ${esc(r.spec.level)} · ${r.durationMs} ms</span></h3>` +
    (r.findings.length ? `<ul>${entries(r.findings, verbose, { files: true }).map(finding).join('')}</ul>` : '') +
    '</section>';
  // The checks by how they ended, what needs reading first (open), what passed or did not apply folded: a table of
  // contents without a script.
  const groups = GROUPS.map((g) => ({
    ...g,
    results: report.results.filter((r) => shownStatus(r) === g.status),
  })).filter((g) => g.results.length);
  const toc = `<nav class="toc" id="${prefix}contents">${groups.map((g) => `<a href="#${prefix}${g.status}">${g.heading} (${g.results.length})</a>`).join('')}</nav>`;
  const checks = groups
    .map(
      (g) =>
        `<details class="group" id="${prefix}${g.status}"${g.open ? ' open' : ''}><summary>${g.heading} (${g.results.length})</summary>\n${g.results.map(section).join('\n')}\n</details>`,
    )
    .join('\n');
  // The badge says the word: the sentence goes on without repeating it ("no — No: …").
  const rest = reportVerdictSentence(report).replace(/^(Yes|No|Partly): /, '');
  const sentence = rest.charAt(0).toUpperCase() + rest.slice(1);
  return `<${heading}>mcp-pd-check ${esc(report.tool.version)}</${heading}>
<p>${esc(target.what)} (${esc(target.kind)})${t.serverInfo?.name ? ` — ${esc(`${t.serverInfo.name} ${t.serverInfo.version ?? ''}`)}` : ''} · <time datetime="${esc(report.startedAt)}">${esc(readableTime(report.startedAt))}</time> · ${(report.durationMs / 1000).toFixed(1)} s</p>
<p class="summary"><span style="color:${COLOR.pass}">${s.passed} passed</span><span style="color:${COLOR.fail}">${s.failed} failed</span><span style="color:${COLOR.warn}">${plural(s.warnings, 'warning')}</span><span class="muted">${s.skipped} skipped</span>${s.accepted ? `<span class="muted">${s.accepted} accepted by the baseline</span>` : ''}<span style="color:${COLOR.error}">${esc(errorsPart(s.errors, report.results))}</span></p>
${v ? `<p id="${prefix}verdict" class="verdict ${v.implements}"><b>Progressive disclosure: ${v.implements}</b>. ${esc(sentence)}</p>` : ''}
${reachOf(report) ? `<p id="${prefix}reach">Reach: ${esc(reachSentence(reachOf(report)!))}</p>` : ''}
${budgetsOf(report) ? `<p id="${prefix}budgets">${esc(budgetSentence(budgetsOf(report)!))}</p>` : ''}
${report.score ? scoreHtml(report.score, report.options?.minScore, prefix) : ''}
<${sub}>Tokens per tool</${sub}>
${chart(tokenData(report), `${prefix}token-chart`)}
<${sub}>Checks</${sub}>
${toc}
${checks}`;
}

/** The groups of checks, in reading order: failures first; passed and skipped folded. */
const GROUPS: ReadonlyArray<{ status: string; heading: string; open: boolean }> = [
  { status: 'fail', heading: 'Failed', open: true },
  { status: 'error', heading: 'Could not run', open: true },
  { status: 'warn', heading: 'Warnings', open: true },
  { status: 'accepted', heading: 'Accepted by the baseline', open: true },
  { status: 'skip', heading: 'Skipped', open: false },
  { status: 'pass', heading: 'Passed', open: false },
];

/** "27 Nov 2026, 14:30 UTC" from an ISO time (the machine-readable one stays in the datetime attribute). */
function readableTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()];
  return `${d.getUTCDate()} ${month} ${d.getUTCFullYear()}, ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')} UTC`;
}

/** One self-contained HTML page for one report. */
export function renderHtml(report: CheckReport, verbose = false): string {
  return htmlPage('mcp-pd-check report', reportHtml(report, verbose));
}

export { esc as escapeHtml };

/** The score, and each tool's with what took it down, folded. */
function scoreHtml(score: NonNullable<CheckReport['score']>, min: number | undefined, prefix: string): string {
  const rows = score.tools
    .map(
      (t) =>
        `<tr><td><code>${esc(t.tool)}</code></td><td>${t.score}</td><td>${t.text}</td><td>${t.selection ?? ''}</td><td>${esc(t.problems.map((p) => `${p.check} ${p.code}`).join(', '))}</td></tr>`,
    )
    .join('');
  const perfect = score.perfect.length
    ? `<tr><td colspan="5">100: ${score.perfect.map((name) => `<code>${esc(name)}</code>`).join(', ')}</td></tr>`
    : '';
  return `<details id="${prefix}score"><summary><b>Score</b>: ${esc(scoreSentence(score, min))}</summary><table><tr><th>tool</th><th>score</th><th>text</th><th>found</th><th>what took it down</th></tr>${rows}${perfect}</table></details>`;
}
