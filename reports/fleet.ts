// A fleet run (--server-config): first a line per server, then each server's report.
import type { FleetResult } from '../src/library/fleet.js';
import { SHAPE_NAMES } from '../src/library/server-config.js';
import { sanitizeLine } from '../src/util/text.js';
import { renderJunitSuites } from './junit.js';
import { renderText } from './text.js';
import type { RenderOptions } from './index.js';

export const FLEET_FORMATS = ['text', 'json', 'junit'] as const;

function row(e: FleetResult['entries'][number]): string[] {
  const seconds = `${(e.durationMs / 1000).toFixed(1)} s`;
  if (!e.report) return [e.name, 'error', '', '', sanitizeLine(e.error ?? 'not checked'), seconds];
  const v = e.report.verdict;
  const t = v?.tokens;
  const tokens = t ? `${t.listed.toLocaleString('en-US')}${t.estimate !== undefined ? ` → ≈${t.estimate.toLocaleString('en-US')}` : t.full !== undefined ? ` (full ${t.full.toLocaleString('en-US')})` : ''}` : '';
  const s = e.report.summary;
  return [e.name, v?.implements ?? '—', tokens, `${s.failed + s.errors} failed, ${s.warnings} warn`, '', seconds];
}

export function renderFleetText(fleet: FleetResult, options: RenderOptions): string {
  const head = ['server', 'verdict', 'tools/list tokens (minimal)', 'checks', 'problem', 'time'];
  const rows = fleet.entries.map(row);
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(width[i]!)).join('  ').trimEnd();
  const out = [`mcp-pd-check: ${fleet.entries.length} server${fleet.entries.length === 1 ? '' : 's'} from ${fleet.file} (${SHAPE_NAMES[fleet.shape]})`, '', line(head), ...rows.map(line), ''];
  for (const e of fleet.entries) {
    out.push(`━━ ${e.name} ━━`);
    out.push(e.report ? renderText(e.report, options).trimEnd() : `  ${sanitizeLine(e.error ?? '')}`, '');
  }
  return out.join('\n');
}

export function renderFleetJson(fleet: FleetResult): string {
  return `${JSON.stringify({
    fleet: { file: fleet.file, shape: fleet.shape },
    servers: fleet.entries.map((e) => ({ name: e.name, ...(e.target ? { target: e.target } : {}), durationMs: Math.round(e.durationMs), ...(e.error ? { error: e.error } : {}), ...(e.report ? { report: e.report } : {}) })),
  }, null, 2)}\n`;
}

export function renderFleetJunit(fleet: FleetResult): string {
  return renderJunitSuites(fleet.entries.filter((e) => e.report).map((e) => ({ name: e.name, report: e.report! })));
}
