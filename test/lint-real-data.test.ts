// The lint on real data rather than fixtures: the reference server's tool_descriptions lint clean, the
// upstream Tool Cards and the saved tools/list files written by others (beside the checkout) are
// reported with field-level reasons and without a crash, and a malformed file never stops the others.
import t from 'tap';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers.js';
import { lintPaths, NOW } from './support/lint-shipped.js';

/** Data written by others (the upstream Tool Cards, saved tools/list files), beside the checkout. */
const EXTERNAL = join(ROOT, '..', 'shared', 'external');
const externalMissing = existsSync(EXTERNAL) ? false : `the shared corpus is not beside this checkout (${EXTERNAL})`;

t.test("the reference server's tool_descriptions lint clean", async (t) => {
  const report = await lintPaths(['reference-server/tool_descriptions'], { cwd: ROOT, now: NOW });
  // What has nothing to read in a folder of descriptions (cards, a saved list) is skipped, saying so.
  for (const r of report.results)
    t.equal(
      r.status,
      r.findings.some((f) => f.code === 'nothing-to-lint') ? 'skip' : 'pass',
      `${r.id}: ${JSON.stringify(r.findings)}`,
    );
  t.same(
    report.results
      .filter((r) => r.status === 'skip')
      .map((r) => r.id)
      .sort(),
    ['lint-toolcard-consistency', 'lint-toolcard-level', 'lint-tools-list'],
  );
});

t.test('the upstream Tool Cards are each reported with field-level reasons', { skip: externalMissing }, async (t) => {
  const report = await lintPaths([join(EXTERNAL, 'toolcards')], { cwd: ROOT, now: NOW });
  const all = report.results.flatMap((r) => r.findings.map((f) => ({ id: r.id, ...f })));
  const about = (file: string) =>
    all.filter((f) => f.location?.file?.endsWith(file) && f.level !== 'info').map((f) => f.message);
  t.match(
    about('malformed-pii-exposure.json').join('\n'),
    /'safety.pii_exposure' must be one of .*found the string "extreme"/,
  );
  t.match(
    about('malformed-side-effect-class.json').join('\n'),
    /'safety.side_effect_class' must be one of .*"kinda-mutating"/,
  );
  t.match(
    about('schema-without-input-spec.json').join('\n'),
    /'schema' needs one of 'input_schema_inline' or 'input_schema_uri'/,
  );
  t.match(
    about('destructive-without-approval.json').join('\n'),
    /'destructive' but human_approval_required is not true/,
  );
  t.match(about('maximal-all-blocks.json').join('\n'), /unknown field 'tested_with\[0\].model'/i);
  t.match(about('external-email.json').join('\n'), /unknown field 'performance.p95_latency_ms'/i);
  t.match(about('read-only-search.json').join('\n'), /unknown field 'audit.log_locations'/i);
  t.match(about('billing-lookup.json').join('\n'), /unknown field 'cost'/i);
  for (const f of all.filter((f) => f.level !== 'info'))
    t.ok(f.location?.line && f.location.pointer !== undefined, `located: ${f.message}`);
  const levels = all.filter((f) => f.code === 'card-level').length;
  t.equal(levels, 13, 'a level for each of the 13 cards');
});

t.test(
  'the nine saved tools/list files lint without a crash and report tokens per tool',
  { skip: externalMissing },
  async (t) => {
    const dir = join(EXTERNAL, 'tools-list');
    const report = await lintPaths([dir], { cwd: ROOT, now: NOW });
    t.equal(report.summary.errors, 0, 'no check broke');
    const tl = report.results.find((r) => r.id === 'lint-tools-list')!;
    const perFile = tl.findings.filter((f) => f.code === 'file-tokens');
    t.equal(perFile.length, readdirSync(dir).length, 'a total for every file');
    const perTool = tl.findings.filter((f) => f.code === 'tool-tokens');
    t.equal(
      perTool.length,
      perFile.reduce((n, f) => n + (f.args.tools as number), 0),
      'a count for every tool',
    );
    for (const f of perTool) {
      t.ok((f.args.tokens as number) > 0);
      t.equal(f.args.encoding, 'o200k_base');
    }
  },
);

t.test('a malformed file never stops the lint of the others', async (t) => {
  const report = await lintPaths(['fixtures/folders/json-syntax', 'reference-server/tool_descriptions'], {
    cwd: ROOT,
    now: NOW,
  });
  t.equal(report.summary.errors, 0);
  t.equal(report.results.find((r) => r.id === 'lint-json-syntax')!.status, 'fail');
  t.equal(
    report.results.find((r) => r.id === 'lint-tool-descriptions')!.status,
    'pass',
    'the good folder was still linted',
  );
});
