// The score of what the model reads (src/core/score.ts, docs/quality.md "The score"): its arithmetic
// on findings made for the purpose, the weights the docs publish, --min-score at its boundary (the
// run's own score passes, one more fails), every report format saying it, and the badge.
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCORE_WEIGHTS, scoreOf } from '../src/core/score.js';
import type { CheckReport, CheckResult, Finding } from '../src/generated/report.js';
import { REPORTERS } from '../reports/index.js';
import { renderBadge } from '../reports/badge.js';
import { ROOT, runCli, tempDir } from './helpers.js';

const finding = (code: string, level: Finding['level'], tool?: string, args: Finding['args'] = {}): Finding => ({
  code,
  level,
  message: code,
  args: { ...args, ...(tool ? { tool } : {}) },
  ...(tool ? { location: { tool } } : {}),
});

const result = (id: string, findings: Finding[], extra: Partial<CheckResult> = {}): CheckResult => ({
  id,
  title: id,
  spec: { doc: 'quality', section: id, level: 'SHOULD', requirements: [] },
  status: findings.some((f) => f.level === 'error')
    ? 'fail'
    : findings.some((f) => f.level === 'warning')
      ? 'warn'
      : 'pass',
  durationMs: 0,
  severity: 'warning',
  findings,
  ...extra,
});

const quality = { plugin: { name: 'quality', version: '1.0.0' } };

t.test('a tool loses what its findings weigh, once a problem; a server its mean and worst tool, halved', async (t) => {
  const score = scoreOf(
    [
      result('quality/listed-how', [finding('how-in-listing', 'warning', 'a')], quality),
      // The same problem in the other era, and twice in one: counted once.
      result(
        'quality/listed-how',
        [finding('how-in-listing', 'warning', 'a'), finding('how-in-listing', 'warning', 'a')],
        {
          ...quality,
          era: '2026-07-28',
        },
      ),
      result(
        'quality/steering',
        [finding('steering-text', 'error', 'b'), finding('hidden-text', 'error', 'b')],
        quality,
      ),
      result('quality/resource-description', [finding('no-which-how', 'warning')], quality),
      // Not a check that judges the texts: it weighs nothing.
      result('pd-session-isolation', [finding('session-leak', 'error', 'c')]),
    ],
    ['a', 'b', 'c'],
  )!;
  const w = SCORE_WEIGHTS;
  // Tools that lost points are listed with why; the others by name.
  const byTool: Record<string, number> = { ...Object.fromEntries(score.tools.map((x) => [x.tool, x.score])), c: 100 };
  t.same(byTool, { a: 100 - w.toolWarning, b: 100 - 2 * w.toolError, c: 100 });
  t.same(score.perfect, ['c']);
  const mean = (byTool.a + byTool.b + byTool.c) / 3;
  t.equal(score.mean, Math.round(mean));
  t.same(score.worst, { tool: 'b', score: byTool.b });
  t.equal(score.server, Math.round((1 - w.worstTool) * mean + w.worstTool * byTool.b - w.serverWarning));
  t.same(score.serverProblems, [{ check: 'quality/resource-description', code: 'no-which-how', level: 'warning' }]);
});

t.test('how well a tool is found weighs in where the run measured it', async (t) => {
  const score = scoreOf(
    [
      result('pd-selection-fidelity', [
        finding('selection-figures', 'info', 'a', { mrr: '0.60', top1: 0.6 }),
        finding('selection-figures', 'info', 'b', { mrr: '1.00', top1: 1 }),
      ]),
    ],
    ['a', 'b', 'c'],
  )!;
  const w = SCORE_WEIGHTS;
  t.same(
    score.tools.map((x) => [x.tool, x.score, x.selection]),
    [['a', Math.round((1 - w.selection) * 100 + w.selection * 60), 60]],
  );
  t.same(score.perfect, ['b', 'c'], 'found first by all its queries, or not measured: nothing lost');
});

t.test('no score where nothing judged the texts', async (t) => {
  t.equal(scoreOf([result('pd-session-isolation', [])], ['a']), undefined);
  t.equal(scoreOf([result('quality/steering', [], { ...quality, status: 'skip' })], ['a']), undefined);
  // A lint of a config file: lint-no-secrets passed on it, but no tool and no text of the model's was read.
  t.equal(scoreOf([result('lint-no-secrets', [])], []), undefined);
  const config = await runCli([
    'lint',
    '--format',
    'json',
    join(ROOT, 'fixtures', 'folders', 'needs-review', 'mcp-pd-check.config.json'),
  ]);
  t.equal((JSON.parse(config.stdout) as CheckReport).score, undefined, 'a lint of a config has no score');
});

t.test('docs/quality.md publishes the weights the code uses', async (t) => {
  const doc = readFileSync(join(ROOT, 'docs', 'quality.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## The score'));
  t.ok(section.length > 200, 'a section "The score"');
  for (const [name, value] of Object.entries(SCORE_WEIGHTS)) {
    const shown = value < 1 ? `${Math.round(value * 100)} %` : String(value);
    t.match(section, new RegExp(`\`${name}\`[^\\n]*\\b${shown.replace(' ', ' ')}`), `${name}: ${shown}`);
  }
});

t.test('--min-score fails below the score and passes at it; --badge writes the badge', async (t) => {
  const folder = join('fixtures', 'quality', 'listed-too-long--long-listing');
  const json = await runCli(['lint', '--format', 'json', folder]);
  const score = (JSON.parse(json.stdout) as CheckReport).score!.server;
  t.ok(score > 0 && score < 100, `the folder scores ${score}`);
  const dir = tempDir();
  const at = await runCli(['lint', '--min-score', String(score), '--badge', join(dir, 'badge.svg'), folder]);
  t.equal(at.code, 0, `--min-score ${score}: exit 0`);
  t.match(at.stdout, new RegExp(`SCORE: ${score}/100 .*\\(--min-score ${score} met\\)`));
  const above = await runCli(['lint', '--min-score', String(score + 1), folder]);
  t.equal(above.code, 1, `--min-score ${score + 1}: exit 1`);
  t.match(above.stdout, new RegExp(`below --min-score ${score + 1}`), 'and the report says why');
  // --fail-on never leaves the score's gate standing.
  t.equal((await runCli(['lint', '--fail-on', 'never', '--min-score', String(score + 1), folder])).code, 1);
  const bad = await runCli(['lint', '--min-score', '101', folder]);
  t.equal(bad.code, 2);
  t.equal(bad.stderr.trim().split('\n').length, 1, `one line: ${bad.stderr.trim()}`);
  const badge = readFileSync(join(dir, 'badge.svg'), 'utf8');
  t.match(
    badge,
    /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="20" role="img" aria-label="[^"]+">/,
  );
  t.match(badge, new RegExp(`<title>tool descriptions: ${score}/100</title>`));
  const missing = await runCli(['lint', '--badge', join(dir, 'no', 'such', 'b.svg'), folder]);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /cannot write --badge '.*': the folder '.*' does not exist/);
  t.notOk(existsSync(join(dir, 'no')));
});

t.test('every report format says the score', async (t) => {
  const json = await runCli([
    'lint',
    '--format',
    'json',
    '--min-score',
    '50',
    join('fixtures', 'quality', 'steering--ignore-instructions'),
  ]);
  const report = JSON.parse(json.stdout) as CheckReport;
  const s = report.score!.server;
  const said = `${s}/100 for what the model reads`;
  for (const format of ['text', 'markdown', 'html', 'junit', 'github'] as const)
    t.match(REPORTERS[format](report, { color: false }), said, `${format} says ${said}`);
  t.match(REPORTERS.junit(report, { color: false }), `<property name="score" value="${s}"/>`);
  const sarif = JSON.parse(REPORTERS.sarif(report, { color: false })) as {
    runs: Array<{ properties: { score: number } }>;
  };
  t.equal(sarif.runs[0].properties.score, s, "sarif: the run's properties");
  t.match(renderBadge(report), `${s}/100`);
});
