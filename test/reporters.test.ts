import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { REPORTERS } from '../reports/index.js';
import { LIVE_CHECKS } from '../checks/index.js';
import type { CheckReport } from '../src/generated/report.js';
import { checkJson, DEFAULT_CHECKS, fixtureBundle, ROOT, runCli, tempDir } from './helpers.js';

const SARIF_SCHEMA = join(ROOT, 'node_modules', '@microsoft', 'jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json');

/** The official SARIF 2.1.0 schema is draft-04, which ajv 8 no longer reads; @cfworker does. */
function sarifErrors(log: unknown): string[] {
  const result = new Validator(JSON.parse(readFileSync(SARIF_SCHEMA, 'utf8')), '4', false).validate(log);
  return result.valid ? [] : result.errors.map((e) => `${e.instanceLocation} ${e.error}`);
}

/** What a hostile server or file might put into a finding. */
const NASTY =
  'evil \u001b[31mred\u001b[0m \u202eesrever\u202c <script>alert(1)</script> ]]> & "q" \'a\' | `x` \n::error::forged\r\n%0Aalso \u0000nul';

function nastyReport(): CheckReport {
  return {
    tool: { name: 'mcp-pd-check', version: '0' },
    target: { kind: 'stdio', command: `node ${NASTY}`, serverInfo: { name: NASTY, version: '1' } },
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    summary: { passed: 0, failed: 1, warnings: 1, skipped: 0, errors: 0 },
    results: [
      {
        id: 'pd-minimal-descriptions',
        title: 'T',
        status: 'fail',
        severity: 'error',
        durationMs: 1,
        spec: { doc: 'progressive-disclosure', section: '3.1', level: 'MUST', requirements: [] },
        findings: [
          {
            level: 'error',
            code: 'details-in-description',
            args: { tool: NASTY },
            message: NASTY,
            hint: NASTY,
            location: { tool: NASTY },
            transcript: [
              {
                session: 's1',
                method: 'tools/list',
                request: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
                response: { jsonrpc: '2.0', id: 1, result: { tools: [{ name: NASTY }] } },
              },
            ],
          },
        ],
      },
      {
        id: 'lint-schema',
        title: 'L',
        status: 'warn',
        severity: 'error',
        durationMs: 1,
        spec: { doc: 'mcp-pd-check', section: 'lint', level: 'MUST', requirements: [] },
        findings: [
          {
            level: 'warning',
            code: 'unknown-field',
            args: { field: NASTY },
            message: NASTY,
            location: { file: `dir/${NASTY}.json`, line: 3, column: 7, pointer: '/a' },
          },
        ],
      },
    ],
  };
}

t.test('the nastiest strings are neutralised by every reporter', async (t) => {
  const report = nastyReport();
  const text = REPORTERS.text(report, { color: false });
  t.notMatch(text, /[\u0000\u001b\u202e]/, 'text: no control or bidi characters');
  t.notMatch(text, /^::error::forged/m, 'text: no forged line');

  const junit = REPORTERS.junit(report, { color: false });
  t.notMatch(junit, /<script>|[\u0000\u001b]/, 'junit: escaped, no characters XML cannot hold');
  t.equal((junit.match(/<testcase /g) ?? []).length, 2);
  t.match(junit, /&lt;script&gt;/);

  const github = REPORTERS.github(report, { color: false });
  const commands = github.trimEnd().split('\n');
  t.equal(commands.length, 3, 'one line per finding plus the summary: nothing injected');
  for (const line of commands) t.match(line, /^::(error|warning|notice) [^:]*::/, 'every line is one of ours');
  t.notMatch(github, /\n::error::forged/);

  const md = REPORTERS.markdown(report, { color: false });
  const outsideCode = md.replace(/^(`{3,})[\s\S]*?^\1$/gm, '');
  t.notMatch(outsideCode, /<script>/, 'markdown: no raw HTML outside code blocks');
  t.notMatch(md, /[\u0000\u001b\u202e]/, 'markdown: no control or bidi characters anywhere');
  const fences = md.match(/^`{3,}/gm) ?? [];
  t.equal(fences.length % 2, 0, 'markdown: code fences are balanced');

  const sarif = JSON.parse(REPORTERS.sarif(report, { color: false }));
  t.same(sarifErrors(sarif), [], 'sarif: valid against the SARIF 2.1.0 schema');

  const html = REPORTERS.html(report, { color: false });
  t.notMatch(html, /<script/i, 'html: no script element, injected or otherwise');
  t.notMatch(html, /[\u0000\u001b\u202e]/, 'html: no control or bidi characters');
  t.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  t.equal(
    JSON.parse(REPORTERS.json(report, { color: false })).results[0].findings[0].message,
    NASTY,
    'json keeps the data exactly (JSON escaping makes it inert)',
  );
});

t.test('one run writes JUnit, SARIF, GitHub and Markdown next to the text report', async (t) => {
  const dir = tempDir();
  const files = {
    junit: join(dir, 'r.xml'),
    sarif: join(dir, 'r.sarif'),
    github: join(dir, 'r.gh.txt'),
    markdown: join(dir, 'r.md'),
  };
  // One era: what is tested is that every format is written (era names: test/ci-outputs.test.ts).
  const run = await runCli([
    '--protocol',
    '2025-11-25',
    '--only',
    'pd-description-required',
    '--explore',
    '0',
    ...Object.entries(files).flatMap(([k, v]) => ['--report', `${k}=${v}`]),
    '--',
    'node',
    fixtureBundle('pd-description-required--wrong-resource-uri'),
  ]);
  t.equal(run.code, 1);
  t.match(run.stdout, /FAILED \(1\)/, 'the text report still goes to stdout');
  const sarif = JSON.parse(readFileSync(files.sarif, 'utf8'));
  t.same(sarifErrors(sarif), []);
  t.ok(
    sarif.runs[0].results.some(
      (r: { ruleId: string; locations: Array<{ logicalLocations?: unknown[] }> }) =>
        r.ruleId === 'pd-description-required' && r.locations[0].logicalLocations,
    ),
    'live findings have logical locations',
  );
  t.match(readFileSync(files.junit, 'utf8'), /<failure message="[^"]*resource_uri/);
  t.match(readFileSync(files.github, 'utf8'), /^::error title=pd-description-required/m);
  t.match(readFileSync(files.markdown, 'utf8'), /\| ❌ \| `pd-description-required`/);
  t.match(readFileSync(files.markdown, 'utf8'), /<details><summary>JSON-RPC exchange<\/summary>/);
});

t.test('lint SARIF has file locations; --only and --skip select checks', async (t) => {
  const dir = tempDir();
  const out = join(dir, 'lint.sarif');
  const run = await runCli([
    'lint',
    '--only',
    'lint-tool-descriptions',
    '--report',
    `sarif=${out}`,
    'fixtures/folders/tool-descriptions',
  ]);
  t.equal(run.code, 1);
  const sarif = JSON.parse(readFileSync(out, 'utf8'));
  t.same(sarifErrors(sarif), []);
  t.same([...new Set(sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId))], ['lint-tool-descriptions']);
  t.match(
    sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri,
    /^fixtures\/folders\/tool-descriptions\//,
  );
  const { report } = await checkJson(
    ['node', fixtureBundle('plain-mcp-server')],
    ['--only', 'mcp-', '--skip', 'mcp-wire-valid'],
  );
  // --only and --skip choose by id and prefix; the report keeps the registry's order.
  t.same(
    report.results.map((r) => r.id),
    LIVE_CHECKS.filter((c) => c.id.startsWith('mcp-') && c.id !== 'mcp-wire-valid').map((c) => c.id),
  );
  const bad = await runCli(['--only', 'pd-nope', '--', 'node', 'x.js']);
  t.equal(bad.code, 2);
  t.match(bad.stderr, /no check is called 'pd-nope'/);
  const badReport = await runCli(['--report', 'pdf=x.pdf', '--', 'node', 'x.js']);
  t.equal(badReport.code, 2);
  t.match(badReport.stderr, /unknown format 'pdf'/);
});

t.test('list-checks lists every check, in text and JSON', async (t) => {
  const { LIVE_CHECKS, LINT_CHECKS } = await import('../checks/index.js');
  const json = await runCli(['list-checks', '--format', 'json']);
  t.equal(json.code, 0);
  // Ours, then the default plugins' (the quality rules: a live and a lint check of one id each).
  const quality = [...DEFAULT_CHECKS.live, ...DEFAULT_CHECKS.lint].filter((c) => c.id.startsWith('quality/'));
  t.same(
    JSON.parse(json.stdout).map((c: { id: string }) => c.id),
    [...LIVE_CHECKS, ...LINT_CHECKS, ...quality].map((c) => c.id),
  );
  const text = await runCli(['list-checks']);
  for (const c of [...LIVE_CHECKS, ...LINT_CHECKS, ...quality]) t.match(text.stdout, new RegExp(`^${c.id} `, 'm'));
});

// The HTML report of a passing server: test/reference-server.test.ts.

t.test("the HTML chart of a server without the resource shows today's cost and the estimate", async (t) => {
  const { report } = await checkJson(['node', fixtureBundle('plain-mcp-server')]);
  const html = REPORTERS.html(report, { color: false });
  t.equal(report.verdict?.implements, 'no');
  t.equal(
    (html.match(/<title>[a-z]+: tools\/list today \d+ tokens<\/title>/g) ?? []).length,
    2,
    "a bar of today's cost for each tool",
  );
  t.equal(
    (html.match(/<title>[a-z]+: listed minimally \(estimate\) \d+ tokens<\/title>/g) ?? []).length,
    2,
    'and one of the estimate, labelled as such',
  );
  t.notMatch(html, /No token figures/);
});

t.test('the text report says how many tools gave selection queries, and why a yes still exits 1', async (t) => {
  const { renderText } = await import('../reports/text.js');
  const tools = Array.from({ length: 21 }, (_, i) => ({ tool: `t${i}`, top1: 1, mrr: 1, queries: i < 2 ? 1 : 0 }));
  const report = {
    tool: { name: 'mcp-pd-check', version: '0' },
    target: { kind: 'stdio' as const, command: 'node s.js' },
    startedAt: '',
    durationMs: 0,
    summary: { passed: 0, failed: 1, warnings: 0, skipped: 0, errors: 0 },
    results: [
      {
        id: 'mcp-input-validation',
        title: 'x',
        status: 'fail' as const,
        severity: 'error' as const,
        spec: { doc: 'mcp-base' as const, section: 's', level: 'MUST' as const },
        durationMs: 0,
        findings: [],
      },
    ],
    verdict: {
      implements: 'yes' as const,
      summary: 'Yes.',
      failing: [],
      notTestable: [],
      selection: { top1: 1, mrr: 1, queries: 2, tools },
    },
  };
  const text = renderText(report, { color: false });
  t.match(
    text,
    /100 % of 2 queries from the tools' own descriptions rank their tool first \(BM25, MRR 1\.00\) \(queries from 2 of 21 tools: the others' descriptions give no sentence that is theirs alone\)/,
  );
  t.match(
    text,
    /yes for progressive disclosure; other checks fail \(mcp-input-validation\): they fail the run \(exit 1\)/,
  );
});

t.test(
  "the text report's exploration line says whose session was idle: the probe, lent over stdio, is not one of its own",
  async (t) => {
    const { renderText } = await import('../reports/text.js');
    const base = {
      tool: { name: 'mcp-pd-check', version: '0' },
      target: { kind: 'stdio' as const, command: 'node s.js' },
      startedAt: '',
      durationMs: 0,
      summary: { passed: 0, failed: 0, warnings: 0, skipped: 0, errors: 0 },
      results: [],
      verdict: { implements: 'yes' as const, summary: 'Yes.', failing: [], notTestable: [] },
    };
    const hold = (session: string) => ({ session, tool: 'a', fetchedAt: 1.5, calledAt: 3.5, newConnection: false });
    const lent = renderText(
      {
        ...base,
        exploration: {
          seed: 1,
          budget: 50,
          requests: 50,
          sessions: 3,
          replays: 0,
          found: 0,
          idleMs: 2000,
          idleHold: hold('probe'),
        },
      },
      { color: false },
    );
    t.match(
      lent,
      /explored: 50 requests in 2 sessions of its own and the probe \(the probe idle 2\.0 s: 'a' fetched at 1\.50 s, still let through at 3\.50 s\)/,
    );
    const own = renderText(
      {
        ...base,
        exploration: {
          seed: 1,
          budget: 50,
          requests: 50,
          sessions: 7,
          replays: 0,
          found: 0,
          idleMs: 2000,
          idleHold: hold('X1'),
        },
      },
      { color: false },
    );
    t.match(own, /explored: 50 requests in 7 sessions of its own \(one idle 2\.0 s: 'a' fetched/);
  },
);
