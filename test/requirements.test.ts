// Traceability: every testable row of ../shared/specs/REQUIREMENTS.md is named by a check that
// proves it (spec.requirements), and no check names a row that does not exist.
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LINT_CHECKS, LIVE_CHECKS } from '../checks/index.js';
import { ROOT } from './helpers.js';

const FILE = join(ROOT, '..', 'shared', 'specs', 'REQUIREMENTS.md');
const missing = existsSync(FILE) ? false : `the requirements table is not beside this checkout (${FILE})`;

interface Row {
  id: string;
  testable: string;
}

/** The table rows: `|id|level|statement|who|testable|check|`. */
function rows(text: string): Row[] {
  return text
    .split('\n')
    .filter((line) => /^\|[A-Z]+-[^|]*\|/.test(line))
    .map((line) => {
      const cells = line.split('|');
      return { id: cells[1].trim(), testable: cells[5].trim() };
    });
}

t.test('every testable requirement is named by a check, and every named one exists', { skip: missing }, async (t) => {
  const all = rows(readFileSync(FILE, 'utf8'));
  t.ok(all.length > 100, `the table was read (${all.length} rows)`);
  const testable = all.filter((r) => !r.testable.startsWith('no'));
  const named = new Map<string, string[]>();
  for (const check of [...LIVE_CHECKS, ...LINT_CHECKS]) {
    for (const id of check.spec.requirements) named.set(id, [...(named.get(id) ?? []), check.id]);
  }
  const unproven = testable.filter((r) => !named.has(r.id)).map((r) => r.id);
  t.same(
    unproven,
    [],
    `${testable.length - unproven.length} of ${testable.length} testable requirements are named by a check`,
  );
  const known = new Set(all.map((r) => r.id));
  const unknown = [...named.keys()].filter((id) => !known.has(id));
  t.same(unknown, [], 'no check names a requirement the table does not have');
  const untestable = [...named.keys()].filter((id) => all.find((r) => r.id === id)?.testable.startsWith('no'));
  t.same(untestable, [], 'no check claims to prove a requirement the table calls untestable');
});
