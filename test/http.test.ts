import t from 'tap';
import {
  checkJson,
  DEFAULT_CHECKS,
  REFERENCE_CARDS,
  fixtureBundle,
  REFERENCE,
  reportSchemaErrors,
  runCli,
  startHttp,
} from './helpers.js';
import { codesOf } from './support/check-tester.js';
import { startHttpServer } from '../reference-server/http.js';

// Fixtures over HTTP: test/fixtures.test.ts (HTTP-only faults, as processes) and
// test/fixture-matrix.test.ts (every fixture, in-process).

t.test('the reference server over Streamable HTTP passes every check', async (t) => {
  const server = await startHttp(REFERENCE);
  t.teardown(server.stop);
  // With its card files too, so that toolcard-files runs (and passes) beside toolcard-well-known.
  const run = await runCli(['--format', 'json', '--cards', REFERENCE_CARDS, '--url', server.url]);
  t.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  t.same(reportSchemaErrors(report), []);
  t.equal(report.target.kind, 'http');
  t.equal(report.target.url, server.url);
  // Both protocol eras, every check in each: all pass, but what 2026-07-28 over HTTP does not have
  // (ping, sessions; no session to gate calls by), which is said so.
  t.same(
    report.eras.map((e: { era: string; checked: boolean }) => [e.era, e.checked]),
    [
      ['2025-11-25', true],
      ['2026-07-28', true],
    ],
  );
  t.same(
    report.results.map((r: { id: string; era: string }) => `${r.id} ${r.era}`),
    ['2025-11-25', '2026-07-28'].flatMap((era) => DEFAULT_CHECKS.live.map((c) => `${c.id} ${era}`)),
  );
  for (const r of report.results) {
    const notInEra =
      r.status === 'skip' &&
      r.findings.every(
        (f: { code: string }) => f.code === 'needs-era' || (r.era === '2026-07-28' && f.code === 'not-applicable-era'),
      );
    t.ok(
      r.status === 'pass' || notInEra,
      `${r.id} (${r.era}): ${r.status} ${JSON.stringify(r.findings).slice(0, 300)}`,
    );
  }
  t.same(
    report.results
      .filter((r: { status: string; era: string }) => r.status === 'skip' && r.era === '2026-07-28')
      .map((r: { id: string }) => r.id)
      .sort(),
    [
      'mcp-ping',
      'mcp-session-lifecycle',
      'pd-authorization-enforced',
      'pd-description-required',
      'pd-session-isolation',
    ],
    'in 2026-07-28 over HTTP: no ping, no session',
  );
  t.same(
    report.results
      .filter((r: { status: string; era: string }) => r.status === 'skip' && r.era === '2025-11-25')
      .map((r: { id: string }) => r.id)
      .sort(),
    ['mcp-modern-results', 'mcp-resource-not-found'],
    'in 2025-11-25: none of the modern result rules',
  );
  t.equal(report.verdict.implements, 'yes');
  t.match(report.verdict.summary, /For 2026-07-28 clients — Yes, as far as this era allows: .*calls are not gated/);
});

t.test(
  'module-level grants: pass over stdio, fail pd-session-isolation over HTTP with both sessions shown',
  async (t) => {
    const bundle = fixtureBundle('pd-session-isolation--module-level-grants');
    const only = ['--only', 'pd-session-isolation'];
    const stdio = await checkJson(['node', bundle], only);
    t.equal(
      stdio.report.results.find((r) => r.id === 'pd-session-isolation')!.status,
      'pass',
      'over stdio each session is a process',
    );

    const server = await startHttp(bundle);
    t.teardown(server.stop);
    const run = await runCli(['--format', 'json', ...only, '--url', server.url]);
    t.equal(run.code, 1);
    const isolation = JSON.parse(run.stdout).results.find((r: { id: string }) => r.id === 'pd-session-isolation');
    t.equal(isolation.status, 'fail');
    const leak = isolation.findings.find((f: { code: string }) => f.code === 'grant-leaked');
    t.ok(leak, 'a leak is reported');
    const sessions = new Set(leak.transcript.map((ex: { session: string }) => ex.session));
    t.equal(sessions.size, 2, "the fetching session's and the leaking session's exchanges are both in the report");

    // A new server: the grants the first run left in its module would make every call run (nothing refused, nothing to
    // tell).
    const again = await startHttp(bundle);
    t.teardown(again.stop);
    const text = await runCli([...only, '--url', again.url]);
    // The leaking session's refusal (before anything was fetched), its call that ran, and the fetch of the session that
    // held the tool.
    t.match(
      text.stdout,
      /→ tools\/call .*│ [a-z]+\d* → resources\/read|→ resources\/read .*│ [a-z]+\d* → tools\/call/,
      'the text report shows them side by side',
    );
    t.match(text.stdout, /TOOL_DESCRIPTION_REQUIRED/, 'with the refusal that shows the server gates the tool');
  },
);

t.test('--header reaches the server, and its value appears in no report', async (t) => {
  const secret = 'tok-3f9a1c77-very-secret';
  const server = await startHttp(REFERENCE, { MCP_PD_REFERENCE_TOKEN: secret });
  t.teardown(server.stop);
  const without = await runCli(['--url', server.url]);
  t.equal(without.code, 3, 'without the header the server refuses: unreachable');
  t.match(without.stderr, /HTTP 401 Unauthorized: the server requires authorization.*pass credentials with --header/);
  const wrong = await runCli(['--url', server.url, '--header', 'Authorization: Bearer not-the-token']);
  t.equal(wrong.code, 3);
  t.match(
    wrong.stderr,
    /HTTP 401 Unauthorized: the server refused the credentials sent \(--header Authorization\).*check that the value is current and meant for this server/,
    'a wrong token is said to be refused, not missing',
  );
  t.notMatch(wrong.stderr, /pass credentials with --header/);
  // The header is what is tested: one cheap check proves the server let the checker in.
  const json = await runCli(
    [
      '--format',
      'json',
      '--only',
      'mcp-tool-names',
      '--url',
      server.url,
      '--header',
      'Authorization: Bearer $PD_TEST_TOKEN',
    ],
    { env: { PD_TEST_TOKEN: secret } },
  );
  t.equal(json.code, 0, json.stderr);
  const text = await runCli(
    ['--only', 'mcp-tool-names', '--url', server.url, '--header', 'Authorization: Bearer ${PD_TEST_TOKEN}'],
    { env: { PD_TEST_TOKEN: secret } },
  );
  t.equal(text.code, 0);
  for (const out of [json.stdout, json.stderr, text.stdout, text.stderr, without.stderr]) t.notMatch(out, secret);
  const unset = await runCli(['--url', server.url, '--header', 'Authorization: Bearer $PD_UNSET_VAR_X']);
  t.equal(unset.code, 2);
  t.match(unset.stderr, /PD_UNSET_VAR_X is not set/);
});

t.test('HTTP targets that cannot be reached: exit 3, one line; bad --url: exit 2', async (t) => {
  const server = await startHttp(REFERENCE);
  const url = server.url;
  await server.stop();
  const down = await runCli(['--url', url]);
  t.equal(down.code, 3);
  t.match(down.stderr, /connection refused/);
  t.equal(down.stderr.trim().split('\n').length, 1);
  const bad = await runCli(['--url', 'ftp://example.com/mcp']);
  t.equal(bad.code, 2);
  const both = await runCli(['--url', url, '--', 'node', 'x.js']);
  t.equal(both.code, 2);
  t.match(both.stderr, /either a server command or --url/);
});

t.test('credentials in --url never reach the report', async (t) => {
  const server = await startHttp(REFERENCE);
  t.teardown(server.stop);
  const withQuery = `${server.url}?api_key=sekret123`;
  const run = await runCli(['--format', 'json', '--only', 'mcp-tool-names', '--url', withQuery]);
  t.notMatch(run.stdout, 'sekret123');
  t.match(JSON.parse(run.stdout).target.url, /api_key=REDACTED/);
});

t.test(
  'the older HTTP+SSE transport: the reference server passes every check, and leaky grants are caught',
  async (t) => {
    const server = await startHttp(REFERENCE);
    t.teardown(server.stop);
    const sse = server.url.replace(/\/mcp$/, '/sse');
    const auto = await runCli(['--format', 'json', '--cards', REFERENCE_CARDS, '--url', sse]);
    t.equal(auto.code, 0, auto.stderr);
    const report = JSON.parse(auto.stdout);
    t.same(reportSchemaErrors(report), []);
    t.equal(report.target.transport, 'sse', 'Streamable HTTP got a 4xx, so the run fell back to HTTP+SSE and says so');
    t.notMatch(
      auto.stderr,
      /MaxListenersExceededWarning|Warning:/,
      "no warning of Node's on stderr (an abort listener per request on the stream once passed its limit)",
    );
    t.equal(report.verdict.implements, 'yes');
    // The Streamable HTTP session checks skip over the older transport (it has no Mcp-Session-Id), saying so.
    // The old transport is of the session era: the rules of 2026-07-28 are not checked there.
    const streamableOnly = new Set([
      'mcp-session-lifecycle',
      'mcp-origin-validation',
      'mcp-modern-results',
      'mcp-resource-not-found',
    ]);
    for (const r of report.results) t.equal(r.status, streamableOnly.has(r.id) ? 'skip' : 'pass', `${r.id} over SSE`);
    const forced = await runCli(['--format', 'json', '--only', 'mcp-tool-names', '--transport', 'sse', '--url', sse]);
    const forcedReport = JSON.parse(forced.stdout);
    t.equal(forcedReport.target.transport, 'sse', '--transport sse');
    t.match(
      forcedReport.eras.find((e: { era: string }) => e.era === '2026-07-28'),
      { checked: false, why: /--transport sse: 2026-07-28 has no HTTP\+SSE transport/ },
      'the era it leaves out says why',
    );
    // Asked for a transport the endpoint does not offer: exit 3 and one line, never a silent Streamable HTTP run.
    const notOffered = await runCli(['--transport', 'sse', '--url', server.url]);
    t.equal(notOffered.code, 3, 'exit 3');
    t.match(
      notOffered.stderr,
      /^mcp-pd-check: cannot check '[^']+': the HTTP\+SSE transport asked for \(--transport sse, or a config entry of type sse\) did not work: .*leave --transport out, or give streamable-http; in a config file, type http\)\n$/,
      'one line that says what to do',
    );
    const contradiction = await runCli(['--transport', 'sse', '--protocol', '2026-07-28', '--url', server.url]);
    t.equal(contradiction.code, 2, '--transport sse with --protocol 2026-07-28: a usage error');
    t.match(contradiction.stderr, /2026-07-28 is spoken over Streamable HTTP only/);
    const streamable = await runCli(['--format', 'json', '--only', 'mcp-tool-names', '--url', server.url]);
    t.equal(JSON.parse(streamable.stdout).target.transport, 'streamable-http', 'and /mcp is Streamable HTTP');

    const leaky = await startHttp(fixtureBundle('pd-session-isolation--module-level-grants'));
    t.teardown(leaky.stop);
    const caught = await runCli([
      '--format',
      'json',
      '--only',
      'pd-session-isolation',
      '--url',
      leaky.url.replace(/\/mcp$/, '/sse'),
    ]);
    t.equal(caught.code, 1);
    const isolation = JSON.parse(caught.stdout).results.find((r: { id: string }) => r.id === 'pd-session-isolation');
    t.same(
      codesOf(isolation),
      ['grant-inherited', 'grant-leaked'],
      'one event stream per session: a grant shared between streams is caught',
    );
  },
);

t.test(
  'an era the server fails to open (HTTP 503) is no era it does not speak: no verdict on the other alone, exit 3 in one line',
  async (t) => {
    // Its 2025-11-25 sessions are all taken; 2026-07-28 needs none and would pass alone.
    const server = await startHttpServer({ port: 0, maxSessions: 2 });
    t.teardown(() => server.close());
    for (let id = 1; id <= 2; id++) {
      const res = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'filler', version: '1' } },
        }),
      });
      await res.text();
    }
    t.equal(server.sessions(), 2, 'the server is full');
    const run = await runCli(['--url', server.url]);
    t.equal(run.code, 3, 'exit 3: the server could not be checked');
    t.equal(run.stdout, '', 'no report, no verdict');
    t.match(
      run.stderr,
      /^mcp-pd-check: cannot check '[^']+': .*initialize.*HTTP 503.*Too many sessions/,
      "what failed, with its status and the server's words",
    );
    t.equal(run.stderr.trim().split('\n').length, 1, 'one line');
  },
);

t.test('a run leaves no session open on the server: those it dropped on purpose are ended after the run', async (t) => {
  const server = await startHttpServer({ port: 0 });
  t.teardown(() => server.close());
  // A seed whose exploration drops sessions (a client that goes away, without DELETE).
  const run = await runCli(['--seed', '7', '--url', server.url]);
  t.equal(run.code, 0, run.stderr);
  t.equal(server.sessions(), 0, 'every session the run opened was ended (DELETE)');
});
