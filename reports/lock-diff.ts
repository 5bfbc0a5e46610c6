// The lock's diff in each format `lock --check --format` writes: text for a terminal, JSON for a
// program, Markdown for a pull-request comment or the step summary, and GitHub annotations on the
// lock file's own lines.
import { data, property } from './github.js';
import { sanitizeLine } from '../src/util/text.js';
import type { LockDiff, SurfaceChange } from '../src/lock/diff.js';
import {
  details,
  headline,
  summaryLine,
  TEXT_MARKS,
  totalsLines,
  updateCommand,
  updateHint,
  type Marks,
} from './lock-sentences.js';

export const LOCK_FORMATS = ['text', 'json', 'markdown', 'github'] as const;
export type LockFormat = (typeof LOCK_FORMATS)[number];

const SIGN: Record<SurfaceChange['kind'], string> = {
  'tool-added': '+',
  'tool-removed': '-',
  'tool-changed': '~',
  'era-added': '+',
  'era-removed': '-',
};

/**
 * `command`: how to run the checker, for the step that accepts a change (src/cli/invocation.ts);
 * `updating`: this run rewrites the lock itself (--update), so that step is not offered.
 */
export interface LockDiffOptions {
  command?: string;
  updating?: boolean;
}

export function renderLockDiff(
  diff: LockDiff,
  format: LockFormat,
  file: string,
  lockText: string,
  options: LockDiffOptions = {},
): string {
  const hint = diff.same || options.updating ? undefined : { file, command: options.command };
  switch (format) {
    case 'json':
      return `${JSON.stringify({ file, ...diff }, null, 2)}\n`;
    case 'markdown':
      return markdown(diff, file, hint);
    case 'github':
      return github(diff, file, lockText, hint);
    default:
      return text(diff, file, hint);
  }
}

type Hint = { file: string; command?: string } | undefined;

function text(diff: LockDiff, file: string, hint: Hint): string {
  const lines = [summaryLine(diff, file)];
  for (const change of diff.changes) {
    lines.push(`  ${SIGN[change.kind]} ${headline(change, TEXT_MARKS)}`);
    for (const d of details(change, TEXT_MARKS)) lines.push(`      ${d}`);
  }
  if (diff.totals.length) lines.push('', ...totalsLines(diff).map((l) => `  ${l}`));
  if (hint) lines.push('', updateHint(hint.file, hint.command));
  return `${lines.join('\n')}\n`;
}

/** A Markdown cell: no line break, no pipe, no HTML from the server. */
function cell(s: string): string {
  return sanitizeLine(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '&#124;')
    .replace(/([\\`*_~[\]#])/g, '\\$1');
}

const MARKDOWN_MARKS: Marks = {
  removed: (s) => `<del>${cell(s)}</del>`,
  added: (s) => `<ins>${cell(s)}</ins>`,
  code: (s) => `<code>${cell(s)}</code>`,
  plain: cell,
};

function markdown(diff: LockDiff, file: string, hint: Hint): string {
  const title = `### ${cell(summaryLine(diff, file))}`;
  if (diff.same) return `${title}\n`;
  const rows = diff.changes.map((change) => {
    const what = [headline(change, MARKDOWN_MARKS), ...details(change, MARKDOWN_MARKS)].join('<br>');
    return `| ${SIGN[change.kind]} | ${what} |`;
  });
  const totals = diff.totals.length ? ['', ...totalsLines(diff).map((l) => `- ${cell(l)}`)] : [];
  return [
    title,
    '',
    '| | Change |',
    '|---|---|',
    ...rows,
    ...totals,
    ...(hint
      ? [
          '',
          cell(updateHint(hint.file, hint.command)).replace(
            cell(updateCommand(hint.file, hint.command)),
            `\`${updateCommand(hint.file, hint.command)}\``,
          ),
        ]
      : []),
    '',
  ].join('\n');
}

/** Each change as an annotation on its line of the lock file (an added tool: its era's line). */
function github(diff: LockDiff, file: string, lockText: string, hint: Hint): string {
  const lines = lockLines(lockText);
  const out = diff.changes.map((change) => {
    const line =
      ('tool' in change ? lines.get(`${change.eras[0]}/${change.tool}`) : undefined) ?? lines.get(change.eras[0]) ?? 1;
    const message = [headline(change, TEXT_MARKS), ...details(change, TEXT_MARKS)].join('\n');
    return `::error file=${property(file)},line=${line},title=${property(`tool surface: ${change.kind.replace('-', ' ')}`)}::${data(message)}`;
  });
  out.push(
    `::notice title=${property('mcp-pd-check lock')}::${data(hint ? `${summaryLine(diff, file)}\n${updateHint(hint.file, hint.command)}` : summaryLine(diff, file))}`,
  );
  return `${out.join('\n')}\n`;
}

/**
 * Line numbers (1-based) of each era ("2025-11-25") and each tool ("2025-11-25/name") in a lock file as lockText writes
 * it.
 */
function lockLines(text: string): Map<string, number> {
  const at = new Map<string, number>();
  let era: string | undefined;
  for (const [i, line] of text.split('\n').entries()) {
    const eraKey = /^ {4}"(\d{4}-\d{2}-\d{2})": \{/.exec(line);
    if (eraKey) at.set((era = eraKey[1]!), i + 1);
    const tool = /^ {8}"((?:[^"\\]|\\.)*)": \{/.exec(line);
    if (tool && era) at.set(`${era}/${JSON.parse(`"${tool[1]}"`) as string}`, i + 1);
  }
  return at;
}
