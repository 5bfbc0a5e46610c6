import t from 'tap';
import { PAGES, README_MAX_LINES } from './docs/pages.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LINT_CHECKS, LIVE_CHECKS } from '../checks/index.js';
import { checkDocPath, DOC_SECTIONS, parseCheckDoc } from '../src/core/check-docs.js';
import { explainText } from '../src/cli/explain.js';
import { DEFAULT_CHECKS, FIXTURE_SOURCES, ROOT, runCli } from './helpers.js';

// Ours and the default plugins' (the quality rules, documented in docs/checks/quality/).
const ALL = [...DEFAULT_CHECKS.live, ...DEFAULT_CHECKS.lint];
const DOCS = join(ROOT, 'docs', 'checks');
const TESTS = join(ROOT, 'test');
const THIS_FILE = 'check-docs.test.ts';

/** The test sources (not this one) and the case tables they run (test/support), where a check's id must appear as an expectation. */
const testSources = [
  ...readdirSync(TESTS)
    .filter((f) => f.endsWith('.test.ts') && f !== THIS_FILE)
    .map((f) => ({ file: f, text: readFileSync(join(TESTS, f), 'utf8') })),
  ...readdirSync(join(TESTS, 'support'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: `support/${f}`, text: readFileSync(join(TESTS, 'support', f), 'utf8') })),
];
const fixtures = readdirSync(FIXTURE_SOURCES);

t.test('every check has a doc with its four sections, each filled', async (t) => {
  for (const check of ALL) {
    const path = checkDocPath(check.id);
    if (!t.ok(existsSync(path), `${check.id} has docs/checks/${check.id}.md`)) continue;
    const doc = parseCheckDoc(readFileSync(path, 'utf8'));
    t.equal(doc.heading, check.id, `${check.id}: the doc's title is the check id`);
    t.same([...doc.sections.keys()], [...DOC_SECTIONS], `${check.id}: sections in order`);
    for (const section of DOC_SECTIONS) {
      t.ok((doc.sections.get(section) ?? '').length >= 40, `${check.id}: '${section}' says something`);
    }
    t.match(
      doc.sections.get('A passing example') ?? '',
      /^```\w+\n[\s\S]+\n```$/m,
      `${check.id}: the example is a fenced block`,
    );
  }
});

t.test('no doc describes a check that does not exist', async (t) => {
  const ids = new Set(ALL.map((c) => c.id));
  for (const file of readdirSync(DOCS, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.md')) continue;
    t.ok(ids.has(file.slice(0, -3).replace(/\\/g, '/')), `docs/checks/${file} belongs to a check`);
  }
});

t.test('every check has its test', async (t) => {
  for (const check of LIVE_CHECKS) {
    // A live check is proven by a server that breaks exactly it (test/fixtures.test.ts runs them all).
    t.ok(
      fixtures.some((f) => f.startsWith(`${check.id}--`)),
      `${check.id} has fixtures/servers/${check.id}--<violation>.ts`,
    );
  }
  for (const check of LINT_CHECKS) {
    // A lint check is proven by fixture folders with its exact expected findings.
    const quoted = new RegExp(`['"]${check.id}['"]`);
    const where = testSources.filter((s) => quoted.test(s.text)).map((s) => s.file);
    t.ok(where.length > 0, `${check.id} is named in a test (${where.join(', ') || 'none'})`);
  }
});

t.test('explain works for every check id, in text and JSON', async (t) => {
  // Every check's text in-process (what the command prints); the command itself once per format.
  for (const check of ALL) {
    const text = explainText(check, false);
    t.match(text, new RegExp(`^${check.id}\\n  ${escape(check.title)}\\n`), `${check.id}: id and title first`);
    t.match(text, `§${check.spec.section}, ${check.spec.level}`, `${check.id}: the spec section and level`);
    for (const section of DOC_SECTIONS) t.match(text, new RegExp(`^${section}$`, 'm'), `${check.id}: '${section}'`);
    for (const code of Object.keys(check.messages))
      t.match(text, new RegExp(`^  ${code} `, 'm'), `${check.id}: lists the code ${code}`);
  }
  const command = await runCli(['explain', 'pd-unknown-tool']);
  t.equal(command.code, 0, command.stderr);
  t.equal(
    command.stdout,
    explainText(
      ALL.find((c) => c.id === 'pd-unknown-tool')!,
      false,
    ),
    'the command prints that text',
  );
  t.notMatch(command.stdout, /\u001b/, 'no colour when not a terminal');
  const json = await runCli(['explain', '--format', 'json', 'pd-description-required']);
  const parsed = JSON.parse(json.stdout) as {
    id: string;
    severity: string;
    doc: Record<string, string>;
    docUrl: string;
  };
  t.equal(parsed.id, 'pd-description-required');
  t.equal(parsed.severity, 'error');
  t.same(Object.keys(parsed.doc), [...DOC_SECTIONS]);
  t.match(parsed.docUrl, /\/docs\/checks\/pd-description-required\.md$/);
  t.same(
    Object.keys((parsed as unknown as { codes: object }).codes).sort(),
    Object.keys(ALL.find((c) => c.id === 'pd-description-required')!.messages).sort(),
    'and its codes with their templates',
  );
});

t.test('explain with an unknown id is a usage error that suggests the right one', async (t) => {
  const typo = await runCli(['explain', 'pd-unkown-tool']);
  t.equal(typo.code, 2);
  t.equal(typo.stdout, '');
  t.match(typo.stderr, /no check is called 'pd-unkown-tool' \(did you mean 'pd-unknown-tool'\?\)/);
  t.equal(typo.stderr.trim().split('\n').length, 1, 'one line, no stack trace');
  const missing = await runCli(['explain']);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /missing required argument 'check-id' \(run 'mcp-pd-check explain --help' for usage\)\n$/);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

t.test('every README or guide section a check doc or a message cites exists in the page it names', async (t) => {
  const headingsOf = (page: string) =>
    new Set(
      [...readFileSync(join(ROOT, page), 'utf8').matchAll(/^#{1,4} (.+)$/gm)].map((m) => m[1].replace(/`/g, '').trim()),
    );
  const sources = [
    ...readdirSync(DOCS, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.md'))
      .map((f) => ({ file: `docs/checks/${f}`, text: readFileSync(join(DOCS, f), 'utf8') })),
    {
      file: 'src/core/verdict-sentence.ts',
      text: readFileSync(join(ROOT, 'src', 'core', 'verdict-sentence.ts'), 'utf8'),
    },
    { file: 'README.md', text: readFileSync(join(ROOT, 'README.md'), 'utf8') },
  ];
  for (const { file, text } of sources) {
    for (const m of text.matchAll(/(README|docs\/[\w-]+\.md)[,:] "([^"]+)"/g)) {
      // A heading with a parenthesis after its words ("The model (src/model/)") is cited by its words.
      const page = m[1] === 'README' ? 'README.md' : m[1];
      t.ok(
        existsSync(join(ROOT, page)) && [...headingsOf(page)].some((h) => h === m[2] || h.startsWith(`${m[2]} (`)),
        `${file} cites the section "${m[2]}" of ${page}, which exists`,
      );
    }
  }
});

t.test('the README is a front page: at most README_MAX_LINES lines, and it links every guide', async (t) => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const lines = readme.trimEnd().split('\n').length;
  t.ok(lines <= README_MAX_LINES, `${lines} lines (at most ${README_MAX_LINES})`);
  for (const page of PAGES.filter((p) => p !== 'README.md')) t.ok(readme.includes(`](${page})`), `it links ${page}`);
});
