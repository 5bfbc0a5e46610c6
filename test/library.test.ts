// The library is the one door: the CLI maps its flags onto the same options and calls it, so a
// library run and a CLI run with the same settings say the same thing.
import t from 'tap';
import { join } from 'node:path';
import { checkServer, InputError, initServer, lint, TargetUnavailableError } from '../src/index.js';
import type { CheckReport } from '../src/generated/report.js';
import { fixtureBundle, ROOT, runCli, tempDir } from './helpers.js';

const HOSTILE = join(ROOT, 'dist', 'fixtures', 'hostile');

/** What a report says, without the run's times: each check's status and codes. */
function verdicts(report: CheckReport): Array<[string, string, string[]]> {
  return report.results.map((r) => [r.id, r.status, [...new Set(r.findings.map((f) => f.code))].sort()]);
}

t.test('a library run and a CLI run with the same settings give the same options and findings', async (t) => {
  const server = ['node', fixtureBundle('pd-tools-parameter--prefix-match')];
  const cli = await runCli([
    '--format',
    'json',
    '--seed',
    '7',
    '--sessions',
    '2',
    '--fail-on',
    'warning',
    '--',
    ...server,
  ]);
  const fromCli = JSON.parse(cli.stdout) as CheckReport;
  const fromLibrary = await checkServer({ command: server, seed: 7, sessions: 2, failOn: 'warning' });
  t.same(fromLibrary.options, fromCli.options, `the same report options: ${JSON.stringify(fromCli.options)}`);
  t.same(verdicts(fromLibrary), verdicts(fromCli), 'the same checks, statuses and codes');
  t.equal(fromLibrary.verdict?.implements, fromCli.verdict?.implements, 'the same verdict');
});

t.test('maxDurationMs bounds a library run against a server that stalls', async (t) => {
  const started = performance.now();
  // Every request may wait 60 s: only the whole-run deadline can end this run early.
  const outcome = await checkServer({
    command: ['node', join(HOSTILE, 'stalls-after-one.js')],
    timeoutMs: 60_000,
    maxDurationMs: 2000,
  }).catch((err: unknown) => err);
  const seconds = (performance.now() - started) / 1000;
  // The bound is what a hang would exceed (one request's own time limit), not a race with the machine.
  t.ok(seconds < 60, `returned after ${seconds.toFixed(1)} s, before any request's own time limit`);
  // It stalls before tools/list is answered: the server cannot be checked at all (the CLI's exit 3).
  t.ok(outcome instanceof TargetUnavailableError, 'a server that never answers tools/list is unavailable');
  t.match(
    (outcome as Error).message,
    /within the run's time limit, --max-duration \(2 s\)/,
    "and the error says the run's time limit ended it",
  );
});

t.test(
  'maxDurationMs holds once the server has been probed: requests in flight are abandoned, and a report comes back',
  async (t) => {
    const started = performance.now();
    const report = await checkServer({
      command: ['node', join(HOSTILE, 'stalls-after-probe.js')],
      timeoutMs: 60_000,
      maxDurationMs: 2000,
    });
    const seconds = (performance.now() - started) / 1000;
    t.ok(
      seconds < 30,
      `returned after ${seconds.toFixed(1)} s, long before any request's own time limit (a hang guard)`,
    );
    t.ok(
      report.results.some((r) => r.findings.some((f) => f.code === 'not-run' || f.code === 'run-time-up')),
      'the report says the deadline cut the rest',
    );
    t.ok(
      report.results.some((r) => r.status === 'pass'),
      'and holds what was proven by then',
    );
  },
);

t.test('the library checks its options with its own errors, naming its own option keys', async (t) => {
  await t.rejects(
    checkServer({}),
    new InputError("no server to check: give command (e.g. ['node', 'server.js']) or url"),
  );
  await t.rejects(checkServer({ url: 'ftp://x' }), /^url must be http:\/\/ or https:\/\//);
  await t.rejects(
    checkServer({ command: ['node', 'x.js'], url: 'http://127.0.0.1:1/mcp' }),
    /give either command or url, not both/,
  );
  await t.rejects(
    checkServer({ command: ['node', 'x.js'], cwd: join(ROOT, 'no-such-folder') }),
    /cwd '.*no-such-folder' is not a directory/,
  );
  await t.rejects(
    checkServer({ command: ['node', 'x.js'], cards: join(ROOT, 'no-such-folder') }),
    /cards '.*' is not a folder/,
  );
  await t.rejects(
    checkServer({ command: ['node', 'x.js'], require: ['toolcards'] }),
    /require toolcards needs url .* or cards DIR/,
  );
  await t.rejects(checkServer({ command: ['node', 'x.js'], only: ['no-such-check'] }), InputError);
  const gone = await checkServer({ url: 'http://127.0.0.1:1/mcp' }).catch((err: unknown) => err);
  t.ok(
    gone instanceof TargetUnavailableError && gone.target === 'http://127.0.0.1:1/mcp',
    'an unreachable server: TargetUnavailableError naming it',
  );
});

t.test('init and lint through the library', async (t) => {
  const out = tempDir();
  const outcome = await initServer({ command: ['node', fixtureBundle('pd-tools-parameter--prefix-match')], out });
  t.ok(outcome.written.includes('tools-list.minimal.json'), 'init wrote the minimal tools/list');
  const report = await lint([join(out, 'tool_descriptions')]);
  t.ok(report.results.length > 0 && report.summary.errors === 0, 'and its folder lints');
  await t.rejects(initServer({ out, from: join(out, 'none.json') }), /from '.*none.json' does not exist/);
});
