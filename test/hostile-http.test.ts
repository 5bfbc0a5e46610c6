// Hostile servers over HTTP: each gets a clear verdict, a URL that never answers is given one
// connection attempt within --timeout, and an HTTP 500 to server/discover leaves that era absent.
import t from 'tap';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { startHttp } from './helpers.js';
import { assertVerdict, BOUNDS, HOSTILE, runBounded } from './support/hostile.js';
import { type Case, saidBy } from './support/hostile-cases.js';

t.test(
  "a URL that never answers: one connection attempt within --timeout, not a process's start-up allowance",
  async (t) => {
    for (const fixture of ['http-silent', 'http-keep-alive']) {
      const server = await startHttp(join(HOSTILE, `${fixture}.js`));
      t.teardown(() => server.stop());
      const run = await runBounded(['--timeout', '2000', '--url', server.url]);
      t.equal(run.code, 3, `${fixture}: exit 3`);
      t.match(
        run.stderr,
        /did not answer initialize within 2000 ms \(--timeout\)/,
        `${fixture}: says the time it really waited, and which option set it`,
      );
      // The old start-up allowance was 30 s, spent once per transport: a bound only that would exceed.
      t.ok(run.ms < 30_000, `${fixture}: ended after ${Math.round(run.ms)} ms (a hang guard, not a timing test)`);
    }
  },
);

const HTTP: Record<string, Case> = {
  'http-500': { code: 3, proves: /HTTP 500 Internal Server Error: Internal Server Error: \\x1b\[31mboom/ },
  'http-404-session': {
    code: 1,
    check: 'pd-minimal-descriptions',
    proves: /HTTP 404 Not Found \(the server no longer knows this session\)/,
  },
  'http-html': { code: 3, proves: /HTTP 200 with text\/html instead of JSON-RPC: <!doctype html>/ },
  // Gone mid-run: no verdict, and the connection refused is said.
  'http-exits-mid-run': {
    code: 3,
    proves:
      /the server went away during the run \((session \w+|a session started ahead)(, after [^)]+)?\), so no verdict is given: cannot connect to .*connection refused/,
  },
};

t.test(
  'a 2025-11-25 server that answers server/discover with HTTP 500: that era is absent, said in one line, and the other is checked',
  async (t) => {
    const server = await startHttp(join(HOSTILE, 'http-500-to-discover.js'));
    t.teardown(() => server.stop());
    const run = await runBounded(['--format', 'json', ...BOUNDS, '--url', server.url]);
    t.notOk(run.code === 3, `a verdict, not exit 3 (${run.stderr.trim()})`);
    const report = JSON.parse(run.stdout) as CheckReport;
    t.same(
      report.eras?.filter((e) => e.checked).map((e) => e.era),
      ['2025-11-25'],
      '2025-11-25 is checked',
    );
    t.match(
      report.eras?.find((e) => e.era === '2026-07-28')?.why,
      /does not speak it: .*HTTP 500 to server\/discover/,
      '2026-07-28 is said to be absent, with the 500',
    );
    const text = await runBounded([...BOUNDS, '--url', server.url]);
    t.match(
      text.stdout,
      /\nserver: [^\n]*; protocol 2026-07-28 not checked: the server does not speak it: [^\n]*HTTP 500/,
      'in one line of the text report',
    );
  },
);

for (const [fixture, c] of Object.entries(HTTP)) {
  t.test(`${fixture}: a clear verdict over HTTP`, async (t) => {
    const server = await startHttp(join(HOSTILE, `${fixture}.js`));
    t.teardown(() => server.stop());
    const run = await runBounded(['--format', 'json', ...BOUNDS, '--url', server.url]);
    const report = assertVerdict(t, run, c.code);
    if (c.check) t.match(saidBy(report, c.check), c.proves);
    else t.match(run.stderr, c.proves);
  });
}
