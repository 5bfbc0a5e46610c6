// `npm run bench -- --write`: the Performance table (docs/performance.md) is the bench's own output, so its
// figures cannot drift from a run. Everything between the markers is replaced.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers.js';

export interface TableRow {
  what: string;
  median: string;
  rss: string;
  goal: string;
}

const START = '<!-- bench: start (npm run bench -- --write) -->';
const END = '<!-- bench: end -->';

/** The Markdown table of the rows, with the line that says where and how they were measured. */
export function renderTable(rows: readonly TableRow[], machine: string): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  return [
    `${machine}:`,
    '',
    '| what | median | peak RSS | goal |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) => `| ${cell(r.what)} | ${cell(r.median)} | ${cell(r.rss)} | ${cell(r.goal)} |`),
  ].join('\n');
}

/** Puts the table between the markers of docs/performance.md; false when it has none. */
export function writeReadmeTable(table: string): boolean {
  const file = join(ROOT, 'docs', 'performance.md');
  const readme = readFileSync(file, 'utf8');
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) return false;
  writeFileSync(file, `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`);
  return true;
}
