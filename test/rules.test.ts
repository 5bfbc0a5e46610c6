// One rule set: the live and the lint checks run the same validators and report the same codes;
// the registry is complete; codes are unique and never clash with the shared ones.
import t from 'tap';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LINT_CHECKS, LIVE_CHECKS } from '../checks/index.js';
import { referenceBehaviour } from '../reference-server/server.js';
import { CONTEXT_MESSAGES } from '../src/run/context.js';
import { SHARED_MESSAGES } from '../src/core/findings.js';
import type { CheckReport } from '../src/generated/report.js';
import { lintPaths } from '../src/lint/lint.js';
import { placeholders, templateOf } from '../src/core/messages.js';
import { rewriteReads } from '../fixtures/servers/serve.js';
import { ROOT, tempDir } from './helpers.js';
import { runInProcess } from './support/check-tester.js';

t.test('every file in checks/ is a registered check whose id is its file name', async (t) => {
  const registered = new Map([...LIVE_CHECKS, ...LINT_CHECKS].map((c) => [c.id, c]));
  // (index.ts registers every check; lint-checks.ts the lint checks alone, so that lint loads no live check)
  const files = readdirSync(join(ROOT, 'checks')).filter(
    (f) => f.endsWith('.ts') && f !== 'index.ts' && f !== 'lint-checks.ts',
  );
  for (const file of files) {
    const { default: check } = (await import(join(ROOT, 'dist', 'checks', file.replace(/\.ts$/, '.js')))) as {
      default: { id: string };
    };
    t.equal(check.id, file.replace(/\.ts$/, ''), `${file}: id = file name`);
    t.equal(registered.get(check.id), check, `${file}: registered in checks/index.ts`);
  }
  t.equal(files.length, registered.size, 'and nothing is registered that has no file');
});

t.test('codes are kebab-case, never redefine a shared code, and templates use only real args', async (t) => {
  const shared = new Set([...Object.keys(SHARED_MESSAGES), ...Object.keys(CONTEXT_MESSAGES)]);
  for (const check of [...LIVE_CHECKS, ...LINT_CHECKS]) {
    for (const [code, spec] of Object.entries(check.messages)) {
      t.match(code, /^[a-z0-9]+(-[a-z0-9]+)*$/);
      t.notOk(shared.has(code), `${check.id}: '${code}' is not a shared code`);
      for (const name of placeholders(templateOf(spec)))
        t.match(name, /^[a-z][A-Za-z0-9]*$/, `${check.id}/${code}: {${name}}`);
    }
  }
});

/** The codes of errors and warnings about one tool (live) or one file (lint), sorted. */
function codes(
  report: CheckReport,
  checks: string[],
  where: (f: CheckReport['results'][number]['findings'][number]) => boolean,
): string[] {
  return [
    ...new Set(
      report.results
        .filter((r) => checks.includes(r.id))
        .flatMap((r) => r.findings.filter((f) => f.level !== 'info' && where(f)).map((f) => f.code)),
    ),
  ].sort();
}

const BROKEN_DESCRIPTION = {
  name: 'get_note',
  description: 'Reads one note.',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id', 'revision'] },
  examples: [{ description: 'wrong type', input: { id: 7 } }, { description: 'no input' }],
  summary: 'a field no tool description has',
};

t.test('one tool description through both paths: the same codes, live and lint', async (t) => {
  // The description's rules only: no exploration (which would also call get_note with the broken example).
  const live = await runInProcess(
    LIVE_CHECKS.filter((c) => c.id === 'pd-full-descriptions'),
    { reference: rewriteReads((body) => ('get_note' in body ? { ...body, get_note: BROKEN_DESCRIPTION } : body)) },
    { explore: 0 },
  );
  const liveCodes = codes(live, ['pd-full-descriptions'], (f) => f.location?.tool === 'get_note');

  const dir = join(tempDir(), 'tool_descriptions');
  mkdirSync(dir);
  writeFileSync(join(dir, 'get_note.json'), JSON.stringify(BROKEN_DESCRIPTION, null, 2));
  const lint = await lintPaths([dir], { cwd: ROOT, checks: LINT_CHECKS });
  const lintCodes = codes(
    lint,
    LINT_CHECKS.map((c) => c.id),
    (f) => f.location?.file?.endsWith('get_note.json') === true,
  );

  t.same(
    liveCodes,
    ['example-invalid', 'missing-field', 'no-error-guidance', 'required-not-in-properties', 'unknown-field'],
    'the live check finds every fault',
  );
  t.same(lintCodes, liveCodes, 'and the lint the same ones');
});

t.test('one Tool Card through both paths: the same codes, live and lint', async (t) => {
  const card = { ...(referenceBehaviour.toolCard('get_note') as Record<string, unknown>) };
  const broken = {
    ...card,
    tool: { ...(card.tool as object), version: '1.0' },
    safety: { ...(card.safety as object), side_effect_class: 'destructive', human_approval_required: false },
    cost: 3,
  };
  delete (broken as Record<string, unknown>).audit;
  const live = await runInProcess(
    LIVE_CHECKS.filter((c) => c.id === 'toolcard-well-known'),
    {
      reference: { toolCard: (tool) => (tool === 'get_note' ? broken : referenceBehaviour.toolCard(tool)) },
      kind: 'http',
    },
  );
  const liveCodes = codes(live, ['toolcard-well-known'], (f) => f.location?.tool === 'get_note');

  const dir = join(tempDir(), 'mcp-tools');
  mkdirSync(dir);
  writeFileSync(join(dir, 'get_note.json'), JSON.stringify(broken, null, 2));
  const lint = await lintPaths([dir], { cwd: ROOT, checks: LINT_CHECKS });
  const lintCodes = codes(
    lint,
    LINT_CHECKS.map((c) => c.id),
    (f) => f.location?.file?.endsWith('get_note.json') === true,
  );

  t.same(
    liveCodes,
    ['bad-pattern', 'destructive-without-approval', 'no-audit', 'unknown-field'],
    'the live check finds every fault',
  );
  t.same(lintCodes, liveCodes, 'and the lint the same ones');
});

t.test('one dashdash server object through both paths: the same codes, live and lint', async (t) => {
  const dd: Record<string, unknown> = {
    ...(referenceBehaviour.initializeExtras().dashdash as Record<string, unknown>),
    specVersion: '0.1.0',
    accessLevel: 'admin',
  };
  delete dd.homepage;
  const live = await runInProcess(
    LIVE_CHECKS.filter((c) => c.id === 'dashdash-server-metadata'),
    { reference: { initializeExtras: () => ({ dashdash: dd }) } },
  );
  const liveCodes = codes(live, ['dashdash-server-metadata'], () => true);

  const file = join(tempDir(), 'initialize.json');
  writeFileSync(
    file,
    JSON.stringify(
      { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'x', version: '1' }, dashdash: dd },
      null,
      2,
    ),
  );
  const lint = await lintPaths([file], { cwd: ROOT, checks: LINT_CHECKS });
  const lintCodes = codes(
    lint,
    LINT_CHECKS.map((c) => c.id),
    () => true,
  );

  t.same(
    liveCodes,
    ['recommended-field-missing', 'spec-version-too-old', 'wrong-value'],
    'the live check finds every fault',
  );
  t.same(lintCodes, liveCodes, 'and the lint the same ones');
});

t.test('one tools/list through both paths: the same name codes, live and lint', async (t) => {
  const tools = [{ name: 'get note' }, { name: 'list_notes' }, { name: 'LIST_NOTES' }, { name: 'list_notes' }].map(
    (x) => ({ ...x, description: 'A tool of the notebook.', inputSchema: { type: 'object' } }),
  );
  const live = await runInProcess(
    LIVE_CHECKS.filter((c) => c.id === 'mcp-tool-names'),
    { reference: { listTools: () => tools as never, pageTools: (all) => ({ tools: all }) } },
  );
  const file = join(tempDir(), 'tools-list.json');
  writeFileSync(file, JSON.stringify({ tools }, null, 2));
  const lint = await lintPaths([file], { cwd: ROOT, checks: LINT_CHECKS });
  const liveCodes = codes(live, ['mcp-tool-names'], () => true);
  t.same(liveCodes, ['name-case-collision', 'name-duplicate', 'name-invalid']);
  t.same(
    codes(lint, ['lint-tools-list'], () => true).filter((c) => c.startsWith('name-')),
    liveCodes,
    'the name codes (its identical descriptions are near-duplicates too: the selection rule)',
  );
});
