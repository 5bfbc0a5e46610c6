// A fleet run (--server-config): first a line per server, then each server's report.
import type { FleetResult } from '../src/library/fleet.js';
import { shardText } from '../src/library/fleet-shard.js';
import { SHAPE_NAMES } from '../src/library/server-config.js';
import { jsonPieces } from '../src/util/json-pieces.js';
import { clip, formatNumber, sanitizeLine } from '../src/util/text.js';
import { data, property, renderGithub } from './github.js';
import { escapeHtml, htmlPage, reportHtml } from './html.js';
import { renderJunitSuites } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { renderSarif } from './sarif.js';
import { renderText } from './text.js';
import { TOOL_NAME, TOOL_VERSION } from '../src/util/version.js';
import type { RenderOptions } from './index.js';

/** A fleet has every format a single run has, each holding every server (a row, a run or a suite each). */
export const FLEET_FORMATS = ['text', 'json', 'junit', 'sarif', 'github', 'markdown', 'html'] as const;
export type FleetFormat = (typeof FLEET_FORMATS)[number];

/** A problem in the table is clipped: the whole of it is under the server's own heading below. */
const PROBLEM_WIDTH = 60;

function row(e: FleetResult['entries'][number]): string[] {
  // A server never started (missing from the merged reports, skipped by intent) took no time: none is shown.
  const seconds = e.missing || e.skipped ? '' : `${(e.durationMs / 1000).toFixed(1)} s`;
  if (!e.report)
    return [
      e.name,
      e.missing ? 'missing' : e.skipped ? 'skipped' : 'error',
      '',
      '',
      '',
      clip(sanitizeLine(e.error ?? 'not checked'), PROBLEM_WIDTH),
      seconds,
    ];
  const v = e.report.verdict;
  const t = v?.tokens;
  const tokens = t
    ? `${formatNumber(t.listed)}${t.estimate !== undefined ? ` → ≈${formatNumber(t.estimate)}` : t.full !== undefined ? ` (full ${formatNumber(t.full)})` : ''}`
    : '';
  const s = e.report.summary;
  const score = e.report.score ? String(e.report.score.server) : '—';
  return [
    e.name,
    v?.implements ?? '—',
    score,
    tokens,
    `${s.failed + s.errors} failed, ${s.warnings} warn`,
    '',
    seconds,
  ];
}

const HEAD = ['server', 'verdict', 'score', 'tools/list tokens (minimal)', 'checks', 'problem', 'time'];

/** What the report covers: the fleet, the shard of it, or what a merge joined and what it lacks. */
function headline(fleet: FleetResult): string {
  const n = serverCount(fleet);
  const from =
    fleet.shape === 'reports'
      ? n === 1
        ? '1 server from its own report'
        : `${n} servers from their own reports`
      : `${n} server${n === 1 ? '' : 's'} from ${fleet.file} (${SHAPE_NAMES[fleet.shape]})`;
  const part = fleet.shard
    ? `shard ${shardText(fleet.shard)}: ${n} of the fleet's ${fleet.identity.size} servers from ${fleet.file} (${SHAPE_NAMES[fleet.shape as keyof typeof SHAPE_NAMES]})`
    : from;
  return `${TOOL_NAME}: ${part}${fleet.merged !== undefined ? `, merged from ${fleet.merged} report${fleet.merged === 1 ? '' : 's'}` : ''}${gaps(
    fleet,
  )
    .map((g) => `; ${g}`)
    .join('')}`;
}

/**
 * How many servers a report covers: its rows, the one row for a merge's unnamed servers counted as what it stands for.
 */
export function serverCount(fleet: FleetResult): number {
  return fleet.entries.length + (fleet.unaccounted ? fleet.unaccounted - 1 : 0);
}

/** What a merge lacks, one phrase each: `2/4 not given`. */
export function gaps(fleet: FleetResult): string[] {
  const out = (fleet.missingShards ?? []).map((s) =>
    s.whole
      ? `${shardText(s)} not given (${s.servers} server${s.servers === 1 ? '' : 's'} not checked)`
      : `${shardText(s)} incomplete (${s.servers} server${s.servers === 1 ? '' : 's'} not reported)`,
  );
  if (fleet.unaccounted)
    out.push(`${fleet.unaccounted} of the fleet's ${fleet.identity.size} servers in none of the reports`);
  return out;
}

export function renderFleetText(fleet: FleetResult, options: RenderOptions): string {
  const head = HEAD;
  const rows = fleet.entries.map(row);
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(width[i]))
      .join('  ')
      .trimEnd();
  const out = [headline(fleet), '', line(head), ...rows.map(line), ''];
  for (const e of fleet.entries) {
    out.push(`━━ ${e.name} ━━`);
    if (e.note) out.push(`  ${sanitizeLine(e.note)}`);
    // Each server's init writes a folder of its own: init refuses to mix two servers in one.
    const initOut = `pd-${e.name.replace(/[^A-Za-z0-9_.-]+/g, '-')}`;
    out.push(
      e.report ? renderText(e.report, { ...options, initOut }).trimEnd() : `  ${sanitizeLine(e.error ?? '')}`,
      '',
    );
  }
  return out.join('\n');
}

/**
 * The fleet as JSON: `fleet` says which fleet (size, digest, and its names in the file's order, so
 * that a merge can name a missing shard's servers), `shard` which part of it; `names: false` leaves
 * the names out (an --out-dir file per server: n names in each of n files would grow as n²).
 */
export function renderFleetJson(fleet: FleetResult, _options?: unknown, options: { names?: boolean } = {}): string {
  return [...fleetJsonChunks(fleet, options)].join('');
}

/**
 * The same text in pieces, a server each, as `JSON.stringify(…, null, 2)` of the whole would write
 * it: a merged sweep of tens of MB is written (and masked) piece by piece, never held as one string.
 */
export function* fleetJsonChunks(fleet: FleetResult, { names = true }: { names?: boolean } = {}): Generator<string> {
  const { size, digest } = fleet.identity;
  const head = JSON.stringify(
    {
      fleet: { file: fleet.file, shape: fleet.shape, size, digest, ...(names ? { names: fleet.identity.names } : {}) },
      ...(fleet.shard ? { shard: fleet.shard } : {}),
      ...(fleet.merged !== undefined ? { merged: fleet.merged } : {}),
      ...(fleet.missingShards?.length ? { missingShards: fleet.missingShards } : {}),
      ...(fleet.unaccounted ? { unaccounted: fleet.unaccounted } : {}),
    },
    null,
    2,
  ).slice(0, -2);
  if (!fleet.entries.length) {
    yield `${head},\n  "servers": []\n}\n`;
    return;
  }
  yield `${head},\n  "servers": [\n`;
  const last = fleet.entries.length - 1;
  for (const [i, e] of fleet.entries.entries()) {
    const entry = {
      name: e.name,
      ...(e.target ? { target: e.target } : {}),
      durationMs: Math.round(e.durationMs),
      ...(e.error ? { error: e.error } : {}),
      ...(e.badEntry ? { badEntry: true } : {}),
      ...(e.skipped ? { skipped: true } : {}),
      ...(e.missing ? { missing: true } : {}),
      ...(e.note ? { note: e.note } : {}),
      ...(e.report ? { report: e.report } : {}),
    };
    // Two levels in, down to each check's result: small pieces (a merged sweep of tens of MB as one
    // string costs its masking and writing more than the stringify).
    yield '    ';
    yield* jsonPieces(entry, 2, 3);
    yield i < last ? ',\n' : '\n';
  }
  yield '  ]\n}\n';
}

export function renderFleetJunit(fleet: FleetResult): string {
  return renderJunitSuites(
    fleet.entries.filter((e) => e.report).map((e) => ({ name: e.name, report: e.report! })),
    fleet.entries
      .filter((e) => !e.report)
      .map((e) => ({ name: e.name, error: e.error ?? 'not checked', ...(e.skipped ? { skipped: true } : {}) })),
  );
}

/** The fleet's servers where their config names them (`name` → line), for SARIF's regions. */
export type EntryLines = ReadonlyMap<string, number>;

interface SarifRun {
  tool: { driver: { rules: Array<{ id: string }> } };
  invocations: Array<{ executionSuccessful: boolean }>;
  results: Array<{
    ruleId: string;
    ruleIndex: number;
    message: { text: string };
    partialFingerprints: Record<string, string>;
    locations: Array<{
      physicalLocation: { region: { startLine: number } };
      logicalLocations?: Array<{ name: string; kind: string; fullyQualifiedName?: string }>;
    }>;
    properties: Record<string, unknown>;
  }>;
}

/**
 * SARIF: one run for the whole fleet — code scanning refuses a file of more than 20 runs, and a
 * sweep is hundreds of servers. Each result says its server (in its text, its logical location and
 * its fingerprint, so that one rule broken by two servers is two alerts) and is located at the
 * line of the config that names the server; a server not checked is a notification of a run that
 * did not succeed; one skipped by intent is nothing (nothing was looked at).
 */
export function renderFleetSarif(
  fleet: FleetResult,
  options: Pick<RenderOptions, 'artifact'> & { entryLines?: EntryLines } = {},
): string {
  const rules: SarifRun['tool']['driver']['rules'] = [];
  const ruleIndex = new Map<string, number>();
  const results: SarifRun['results'] = [];
  const notChecked: Array<{ level: 'error'; message: { text: string } }> = [];
  let successful = true;
  for (const e of fleet.entries) {
    if (e.skipped) continue;
    if (!e.report) {
      notChecked.push({ level: 'error', message: { text: `${e.name}: ${e.error ?? 'not checked'}` } });
      continue;
    }
    const run = (JSON.parse(renderSarif(e.report, options.artifact ?? fleet.file)) as { runs: SarifRun[] }).runs[0];
    successful &&= run.invocations[0]?.executionSuccessful !== false;
    for (const rule of run.tool.driver.rules) if (!ruleIndex.has(rule.id)) ruleIndex.set(rule.id, rules.push(rule) - 1);
    const line = options.entryLines?.get(e.name);
    for (const r of run.results) {
      const location = r.locations[0];
      // A live finding (located at the config, its tool as a logical location) goes to its server's line.
      if (location.logicalLocations) {
        if (line !== undefined) location.physicalLocation.region.startLine = line;
        for (const logical of location.logicalLocations) logical.fullyQualifiedName = `${e.name}/${logical.name}`;
      }
      results.push({
        ...r,
        ruleIndex: ruleIndex.get(r.ruleId)!,
        message: { text: `${e.name}: ${r.message.text}` },
        partialFingerprints: Object.fromEntries(
          Object.entries(r.partialFingerprints).map(([key, value]) => [key, `${value}/${e.name}`]),
        ),
        properties: { ...r.properties, server: e.name },
      });
    }
  }
  const run = {
    tool: { driver: { name: TOOL_NAME, version: TOOL_VERSION, rules } },
    invocations: [
      {
        executionSuccessful: successful && notChecked.length === 0,
        ...(notChecked.length ? { toolExecutionNotifications: notChecked } : {}),
      },
    ],
    results,
    properties: { servers: serverCount(fleet), fleet: fleet.file },
  };
  return `${JSON.stringify({ $schema: 'https://json.schemastore.org/sarif-2.1.0.json', version: '2.1.0', runs: [run] }, null, 2)}\n`;
}

/**
 * GitHub annotations: every server's, each titled with its server; a server not checked is an error annotation, one
 * skipped a notice.
 */
export function renderFleetGithub(fleet: FleetResult, options: RenderOptions): string {
  return fleet.entries
    .map((e) =>
      e.report
        ? renderGithub(e.report, options.commandsOff, options.verbose, e.name)
        : e.skipped
          ? `::notice title=${property(`${e.name}: skipped`)}::${data(e.error ?? 'skipped')}\n`
          : `::error title=${property(`${e.name}: not checked`)}::${data(e.error ?? 'not checked')}\n`,
    )
    .join('');
}

function cell(text: string): string {
  return sanitizeLine(text).replace(/\|/g, '\\|');
}

/**
 * Markdown: the table of servers, then a section per server. `maxBytes` (a GitHub step summary
 * shows at most 1 MiB) keeps the table whole and leaves out the sections that would not fit, saying so.
 */
export function renderFleetMarkdown(fleet: FleetResult, options: RenderOptions & { maxBytes?: number }): string {
  const out = [
    `## ${cell(headline(fleet))}`,
    '',
    `| ${HEAD.join(' | ')} |`,
    `| ${HEAD.map(() => '---').join(' | ')} |`,
    ...fleet.entries.map((e) => `| ${row(e).map(cell).join(' | ')} |`),
    '',
  ];
  const budget = options.maxBytes ?? Infinity;
  let bytes = Buffer.byteLength(out.join('\n')) + 200;
  for (const [i, e] of fleet.entries.entries()) {
    const section = e.report
      ? renderMarkdown(e.report, options.verbose, 3, `${cell(e.name)}`).trimEnd()
      : `### ${cell(e.name)}: ${e.skipped ? 'skipped' : 'not checked'}\n\n${cell(e.error ?? '')}`;
    bytes += Buffer.byteLength(section) + 2;
    if (bytes > budget) {
      const left = fleet.entries.length - i;
      out.push(
        `_The sections of ${left} more server${left === 1 ? '' : 's'} (from ${cell(e.name)} on) are left out: a GitHub step summary shows at most 1 MiB. The table above has every server; the HTML or JSON report has every section._`,
        '',
      );
      break;
    }
    out.push(section, '');
  }
  return `${out.join('\n')}\n`;
}

/** HTML: one page, the table of servers, then a section per server (element ids prefixed per server). */
export function renderFleetHtml(fleet: FleetResult, options: RenderOptions): string {
  // The verdict column is coloured as the verdict of a report is (yes, partly, no; not checked as an error).
  const cellOf = (c: string, j: number, i: number) =>
    j === 0
      ? `<td><a href="#server-${i}">${escapeHtml(c)}</a></td>`
      : j === 1
        ? `<td class="verdict-${escapeHtml(c === '—' ? 'none' : c)}">${escapeHtml(c)}</td>`
        : `<td>${escapeHtml(c)}</td>`;
  const table = `<table class="fleet"><tr>${HEAD.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>${fleet.entries
    .map(
      (e, i) =>
        `<tr>${row(e)
          .map((c, j) => cellOf(c, j, i))
          .join('')}</tr>`,
    )
    .join('')}</table>`;
  const sections = fleet.entries.map(
    (e, i) =>
      `<section id="server-${i}" class="server"><h2>${escapeHtml(e.name)}</h2>\n${e.report ? reportHtml(e.report, options.verbose, `server-${i}-`, 'h3') : `<p>${escapeHtml(e.error ?? 'not checked')}</p>`}</section>`,
  );
  return htmlPage(
    'mcp-pd-check fleet report',
    `<h1>${escapeHtml(headline(fleet))}</h1>\n${table}\n${sections.join('\n')}`,
  );
}
