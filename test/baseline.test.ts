import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprint } from '../src/baseline.js';
import { fixtureBundle, REFERENCE, reportSchemaErrors, runCli, tempDir } from './helpers.js';

t.test('a baseline makes a failing server pass the gate; fixing it makes the entries stale', async (t) => {
  const file = join(tempDir(), 'baseline.json');
  const failing = ['--sessions', '3', '--', 'node', fixtureBundle('pd-description-required--wrong-resource-uri')];

  const before = await runCli(failing);
  t.equal(before.code, 1, 'without a baseline the fixture fails');

  const update = await runCli(['--baseline', file, '--update-baseline', ...failing]);
  t.equal(update.code, 0, 'updating accepts every finding');
  t.match(update.stderr, /baseline .* written: 6 accepted findings/);
  const written = JSON.parse(readFileSync(file, 'utf8'));
  t.equal(written.baselineVersion, 1);
  t.equal(written.accepted.length, 6);

  const gated = await runCli(['--format', 'json', '--baseline', file, ...failing]);
  t.equal(gated.code, 0, 'with the baseline the same failures pass the gate');
  const report = JSON.parse(gated.stdout);
  t.same(reportSchemaErrors(report), []);
  t.same({ accepted: report.baseline.accepted, stale: report.baseline.stale.length }, { accepted: 6, stale: 0 });
  t.ok(report.results.find((r: { id: string }) => r.id === 'pd-description-required').findings.some((f: { accepted?: boolean }) => f.accepted), 'findings are still reported, marked accepted');

  const fixed = await runCli(['--baseline', file, '--', 'node', REFERENCE]);
  t.equal(fixed.code, 0);
  t.match(fixed.stdout, /6 stale \(fixed — run with --update-baseline to drop them\)/);

  // A new failure is not covered by the old baseline.
  const other = await runCli(['--sessions', '3', '--baseline', file, '--', 'node', fixtureBundle('pd-unknown-tool--no-entry'), ]);
  t.equal(other.code, 0, 'a new warning does not fail --fail-on error');
  const strict = await runCli(['--sessions', '3', '--fail-on', 'warning', '--baseline', file, '--', 'node', fixtureBundle('pd-unknown-tool--no-entry')]);
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
  t.match(bad.stderr, /is not a baseline file: missing required field 'baselineVersion'/);
});

t.test('fingerprints ignore session labels and counts, not tools or checks', async (t) => {
  const f = (message: string, tool = 'get_note') => ({ level: 'error' as const, message, location: { tool } });
  t.equal(fingerprint('pd-session-isolation', f('Session s1 never fetched it; s2, s8 fetched it')), fingerprint('pd-session-isolation', f('Session s4 never fetched it; s3 fetched it')));
  t.not(fingerprint('pd-session-isolation', f('x')), fingerprint('pd-session-isolation', f('x', 'list_notes')));
  t.not(fingerprint('a-b', f('x')), fingerprint('a-c', f('x')));
});
