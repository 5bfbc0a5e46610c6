import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { LINT_CHECKS } from '../checks/index.js';
import { applyBaseline, baselineFrom, fingerprint } from '../src/core/baseline.js';
import { lintPaths } from '../src/lint/lint.js';
import { fixtureBundle, REFERENCE, reportSchemaErrors, ROOT, runCli, tempDir } from './helpers.js';

t.test('a baseline makes a failing server pass the gate; fixing it makes the entries stale', async (t) => {
  const file = join(tempDir(), 'baseline.json');
  // The gate is what is tested: one check is enough (the baseline logic is the same for all).
  const failing = [
    '--only',
    'pd-description-required',
    '--explore',
    '0',
    '--',
    'node',
    fixtureBundle('pd-description-required--wrong-resource-uri'),
  ];

  const before = await runCli(failing);
  t.equal(before.code, 1, 'without a baseline the fixture fails');

  const update = await runCli(['--baseline', file, '--update-baseline', ...failing]);
  t.equal(update.code, 0, 'updating accepts every finding');
  // Five tools called unfetched (the destructive one is never called), each refusal pointing at the bare
  // resource, in each of the two protocol eras the fixture speaks (each era's findings are its own).
  t.match(update.stderr, /baseline .* written: 10 accepted findings/);
  const written = JSON.parse(readFileSync(file, 'utf8'));
  t.equal(written.baselineVersion, 2);
  t.ok(
    written.accepted.every((e: { code?: string }) => e.code === 'wrong-resource-uri'),
    'each entry names its code',
  );
  t.equal(written.accepted.length, 10);

  const gated = await runCli(['--format', 'json', '--baseline', file, ...failing]);
  t.equal(gated.code, 0, 'with the baseline the same failures pass the gate');
  const report = JSON.parse(gated.stdout);
  t.same(reportSchemaErrors(report), []);
  t.same({ accepted: report.baseline.accepted, stale: report.baseline.stale.length }, { accepted: 10, stale: 0 });
  t.ok(
    report.results
      .find((r: { id: string }) => r.id === 'pd-description-required')
      .findings.some((f: { accepted?: boolean }) => f.accepted),
    'findings are still reported, marked accepted',
  );
  // In words: a section of their own, never a ✓ among what passed.
  const text = await runCli(['--baseline', file, ...failing]);
  t.equal(text.code, 0);
  t.match(
    text.stdout,
    /ACCEPTED \(2, by the baseline .*baseline\.json: they fail, and do not fail the gate\)\n {2}≈ pd-description-required/,
    'accepted checks have their own section, with the baseline named',
  );
  t.notMatch(text.stdout, /✓ pd-description-required/, 'and are never shown as passed');
  const sums = text.stdout.match(
    /\n(\d+) checks: (\d+) passed, (\d+) failed, (\d+) warnings?, (\d+) skipped, (\d+) accepted by the baseline, (\d+) errors?/,
  );
  t.ok(sums, 'the last line counts the accepted');
  const [total, ...counts] = (sums ?? []).slice(1).map(Number);
  t.equal(
    counts.reduce((a, b) => a + b, 0),
    total,
    'and its parts add up to the checks',
  );
  const md = await runCli(['--format', 'markdown', '--baseline', file, ...failing]);
  t.match(md.stdout, /\| ☑️ accepted \| `pd-description-required/, 'markdown: accepted, not ✅');

  const fixed = await runCli([
    '--only',
    'pd-description-required',
    '--explore',
    '0',
    '--baseline',
    file,
    '--',
    'node',
    REFERENCE,
  ]);
  t.equal(fixed.code, 0);
  t.match(fixed.stdout, /10 stale \(fixed — run with --update-baseline to drop them\)/);

  // A new failure is not covered by the old baseline.
  const other = await runCli([
    '--only',
    'pd-description-required,pd-unknown-tool',
    '--explore',
    '0',
    '--baseline',
    file,
    '--',
    'node',
    fixtureBundle('pd-unknown-tool--no-entry'),
  ]);
  t.equal(other.code, 0, 'a new warning does not fail --fail-on error');
  const strict = await runCli([
    '--only',
    'pd-description-required,pd-unknown-tool',
    '--explore',
    '0',
    '--fail-on',
    'warning',
    '--baseline',
    file,
    '--',
    'node',
    fixtureBundle('pd-unknown-tool--no-entry'),
  ]);
  t.equal(strict.code, 1, 'but it is new, so --fail-on warning fails');
});

t.test('bad baseline files are usage errors before anything runs', async (t) => {
  const dir = tempDir();
  const missing = await runCli(['--baseline', join(dir, 'nope.json'), '--', 'node', REFERENCE]);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /does not exist; create it with --update-baseline/);
  writeFileSync(join(dir, 'bad.json'), '{"accepted": 3}');
  const bad = await runCli(['--baseline', join(dir, 'bad.json'), '--', 'node', REFERENCE]);
  t.equal(bad.code, 2);
  t.match(bad.stderr, /is not a baseline file: missing required field 'baselineVersion'/i);
});

t.test('fingerprints are check, code and location: never the text', async (t) => {
  const f = (code: string, tool = 'get_note') => ({ code, location: { tool } });
  t.equal(
    fingerprint('pd-session-isolation', f('grant-leaked')),
    fingerprint('pd-session-isolation', { ...f('grant-leaked'), message: 'anything at all' } as never),
  );
  t.not(
    fingerprint('pd-session-isolation', f('grant-leaked')),
    fingerprint('pd-session-isolation', f('grant-leaked', 'list_notes')),
    'another tool',
  );
  t.not(
    fingerprint('pd-session-isolation', f('grant-leaked')),
    fingerprint('pd-session-isolation', f('grant-inherited')),
    'another code',
  );
  t.not(fingerprint('a-b', f('x')), fingerprint('a-c', f('x')), 'another check');
  t.not(
    fingerprint('lint-schema', { code: 'x', location: { file: 'a.json', pointer: '/a' } }),
    fingerprint('lint-schema', { code: 'x', location: { file: 'a.json', pointer: '/b' } }),
    'another pointer',
  );
});

t.test('rewording every message template keeps a baseline matching', async (t) => {
  const folders = readdirSync(join(ROOT, 'fixtures', 'folders')).map((f) => join('fixtures', 'folders', f));
  const now = new Date('2026-11-22T12:00:00Z');
  const before = await lintPaths(folders, { cwd: ROOT, now, checks: LINT_CHECKS });
  const baseline = baselineFrom(before);
  t.ok(baseline.accepted.length > 30, `a baseline of ${baseline.accepted.length} findings`);
  // Every template of every check replaced: no message text survives.
  const reworded = LINT_CHECKS.map((c) => ({
    ...c,
    messages: Object.fromEntries(Object.keys(c.messages).map((code) => [code, `Reworded (${code}).`])),
  }));
  const after = await lintPaths(folders, { cwd: ROOT, now, checks: reworded });
  t.ok(
    after.results.flatMap((r) => r.findings).every((f) => f.message.startsWith('Reworded')),
    'every message is new text',
  );
  const gated = applyBaseline(after, baseline, 'baseline.json');
  t.same(
    gated.baseline,
    {
      file: 'baseline.json',
      accepted: baseline.accepted.length + (gated.baseline!.accepted - baseline.accepted.length),
      stale: [],
    },
    'no entry went stale',
  );
  t.equal(gated.summary.failed, 0, 'and every failure is still accepted');
});

t.test('a version 1 baseline (text fingerprints) is refused with what to do', async (t) => {
  const file = join(tempDir(), 'old.json');
  writeFileSync(
    file,
    JSON.stringify({ baselineVersion: 1, accepted: [{ check: 'x', fingerprint: 'y', message: 'z' }] }),
  );
  const run = await runCli(['--baseline', file, '--', 'node', REFERENCE]);
  t.equal(run.code, 2);
  t.match(run.stderr, /version 1 baseline, whose fingerprints hash message text.*--update-baseline/);
});
