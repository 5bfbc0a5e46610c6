// A finding in the text report: its line, the same code on other tools folded under it, and the
// exchanges that prove it side by side.
import { type ChalkInstance } from 'chalk';
import type { Finding, TranscriptExchange } from '../src/generated/report.js';
import { clip, formatNumber, inlineJson, plural, sanitizeLine, asText } from '../src/util/text.js';
import { othersLine, type Entry } from './group.js';
import { noAnswerText, sequenceLines } from './exchange-text.js';

/** A finding, with the same code on other tools folded into one line under it. */
export function renderEntry(e: Entry, c: ChalkInstance, width: number, shown: Set<string>): string[] {
  const lines = renderFinding(e.finding, c, width, shown);
  if (e.others.length) lines.splice(1, 0, `        ${c.gray(`+ ${sanitizeLine(othersLine(e))}`)}`);
  return lines;
}

/** `shown` holds the exchanges already printed for this check: each is printed once. */
function renderFinding(f: Finding, c: ChalkInstance, width: number, shown: Set<string>): string[] {
  const lines: string[] = [];
  const tag = f.accepted
    ? c.gray(`${f.level} (accepted by baseline)`)
    : f.level === 'error'
      ? c.red('error')
      : f.level === 'warning'
        ? c.yellow('warning')
        : c.gray('info');
  const loc = f.location;
  const where = loc?.file
    ? ` ${c.underline(sanitizeLine(`${loc.file}${loc.line ? `:${loc.line}:${loc.column ?? 1}` : ''}`))}`
    : loc?.tool
      ? c.gray(` [${sanitizeLine(loc.tool)}]`)
      : '';
  const message = sanitizeLine(f.message);
  lines.push(`      ${tag}${where} ${f.level === 'info' ? c.gray(message) : message}`);
  if (f.hint) lines.push(`        ${c.cyan('fix:')} ${sanitizeLine(f.hint)}`);
  const [heading, ...steps] = sequenceLines(f);
  if (heading)
    lines.push(`        ${c.cyan(heading)}`, ...steps.map((step) => `          ${sanitizeLine(clip(step, width))}`));
  // The proof of a failure is shown in full; warnings and info stay one-liners.
  if (f.level === 'error' && !f.accepted && f.transcript?.length) {
    const recent = f.transcript.slice(-4);
    const sessions = [...new Set(recent.map((ex) => ex.session))];
    if (sessions.length === 2) {
      // Two sessions (an isolation failure): show them side by side.
      lines.push(
        ...sideBySide(
          sessions.map((s) =>
            recent.filter((ex) => ex.session === s).flatMap((ex) => renderExchange(ex, c, Math.floor(width / 2) - 12)),
          ),
          width,
        ),
      );
      return lines;
    }
    const fresh = recent.filter((ex) => !shown.has(exchangeKey(ex)));
    for (const ex of fresh) {
      shown.add(exchangeKey(ex));
      lines.push(...renderExchange(ex, c, width));
    }
    if (fresh.length < recent.length)
      lines.push(c.gray(`        (${plural(recent.length - fresh.length, 'exchange')} shown above)`));
    if (f.transcript.length > 4)
      lines.push(c.gray(`        (${f.transcript.length - 4} earlier exchanges in the JSON report)`));
  }
  return lines;
}

/** Two columns of already-rendered lines (ANSI colour codes do not count towards the width). */
function sideBySide(columns: string[][], width: number): string[] {
  const half = Math.floor(width / 2) - 2;
  const visible = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '').length;
  const [left = [], right = []] = columns.map((col) => col.map((l) => l.replace(/^ {8}/, '')));
  const rows = Math.max(left.length, right.length);
  const out: string[] = [];
  for (let i = 0; i < rows; i++) {
    const l = left[i] ?? '';
    out.push(`        ${l}${' '.repeat(Math.max(1, half - visible(l)))}│ ${right[i] ?? ''}`);
  }
  return out;
}

function exchangeKey(ex: TranscriptExchange): string {
  return `${ex.session}#${asText((ex.request as { id?: unknown }).id)}`;
}

function renderExchange(ex: TranscriptExchange, c: ChalkInstance, width: number): string[] {
  const request = ex.request as { params?: unknown; truncatedByChecker?: boolean; preview?: string };
  const sent = request.truncatedByChecker
    ? sanitizeLine(clip(request.preview ?? '', width))
    : inlineJson(request.params ?? {}, width);
  const lines = [c.gray(`        ${sanitizeLine(ex.session)} → ${sanitizeLine(ex.method)} `) + sent];
  if (ex.response) {
    const r = ex.response as {
      result?: unknown;
      error?: unknown;
      truncatedByChecker?: boolean;
      originalChars?: number;
      preview?: string;
    };
    // A message too large to keep whole is a preview: say so, and show it.
    const body = r.truncatedByChecker
      ? `${c.gray(`(${r.originalChars !== undefined ? formatNumber(r.originalChars) : 'many'} characters, shown in part)`)} ${sanitizeLine(clip(r.preview ?? '', width))}`
      : 'error' in r
        ? `error ${inlineJson(r.error, width)}`
        : inlineJson(r.result, width);
    lines.push(c.gray(`        ${sanitizeLine(ex.session)} ← `) + body);
  } else {
    lines.push(
      c.gray(`        ${sanitizeLine(ex.session)} ← `) +
        (ex.progress ? (s: string) => s : c.red)(sanitizeLine(clip(noAnswerText(ex), width))),
    );
  }
  return lines;
}
