// First contact (issue 44), reports: each case a new user met of a green where red was due, or of a
// report that contradicts itself — a stateless server warned for what it cannot do, a fleet with a bad
// entry in each report format, criteria "served on demand" by a server that serves nothing — one test
// each, every one failing on the code before.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CheckReport } from '../src/generated/report.js';
import { fixtureBundle, REFERENCE, ROOT, runCli, startHttp, tempDir } from './helpers.js';

const SARIF_SCHEMA = join(ROOT, 'node_modules', '@microsoft', 'jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json');

/** A stateless Streamable HTTP server (no Mcp-Session-Id ever issued), as the SDK builds one. */
async function startStateless(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const mcp = new McpServer({ name: 'stateless', version: '1.0.0' });
    mcp.registerTool('ping_it', { description: 'Answers pong.', annotations: { readOnlyHint: true } }, () => ({
      content: [{ type: 'text', text: 'pong' }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      void mcp
        .connect(transport)
        .then(() => transport.handleRequest(req, res, body ? (JSON.parse(body) as unknown) : undefined));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/mcp`, server };
}

t.test(
  'a stateless HTTP server (no session id issued) is not warned about refusing requests without one',
  async (t) => {
    const { url, server } = await startStateless();
    t.teardown(() => new Promise<void>((done) => server.close(() => done())));
    const run = await runCli(['--format', 'json', '--only', 'mcp-session-lifecycle', '--url', url]);
    const report = JSON.parse(run.stdout) as CheckReport;
    const result = report.results.find(
      (r) => r.id === 'mcp-session-lifecycle' && (r.era === undefined || r.era === '2025-11-25'),
    );
    t.equal(result?.status, 'skip', 'nothing to test: no session');
    t.same(
      result?.findings.map((f) => f.code),
      ['stateless'],
      'and it says why, with no warning',
    );
  },
);

t.test('every report format works for a fleet of two servers, a bad entry being a row of its own', async (t) => {
  const dir = tempDir();
  const config = join(dir, 'mcp.json');
  writeFileSync(
    config,
    `{
    // JSONC, as clients write it
    "servers": {
      "notes": { "type": "stdio", "command": "node", "args": [${JSON.stringify(REFERENCE)}] },
      "notes-too": { "type": "stdio", "command": "node", "args": [${JSON.stringify(REFERENCE)}] },
      "needs-input": { "type": "stdio", "command": "node", "args": [${JSON.stringify(REFERENCE)}], "env": { "TOKEN": "\${input:token}" } },
    },
  }`,
  );
  const formats = ['sarif', 'junit', 'html', 'markdown', 'github', 'json'] as const;
  const files = Object.fromEntries(formats.map((f) => [f, join(dir, `report.${f}`)]));
  const run = await runCli([
    '--explore',
    '0',
    '--only',
    'pd-',
    '--server-config',
    config,
    ...formats.flatMap((f) => ['--report', `${f}=${files[f]}`]),
  ]);
  t.equal(run.code, 2, `the bad entry makes it a usage error, the others are checked: ${run.stderr}`);
  t.match(run.stdout, /\nnotes +yes/);
  t.match(run.stdout, /\nnotes-too +yes/);
  t.match(run.stdout, /\nneeds-input +error +--server-config/);
  // The table stays a table: a long problem is clipped there (whole under the server's heading), so "time" stays in
  // view.
  const table = run.stdout.split('\n\n')[1] ?? '';
  t.ok(
    table.split('\n').every((l) => l.length <= 160),
    `no table line is wider than 160 columns (${Math.max(...table.split('\n').map((l) => l.length))})`,
  );
  t.match(run.stdout, /━━ needs-input ━━\n {2}.*\$\{input:token\} has no value/, 'the whole problem under its server');

  const sarif = JSON.parse(readFileSync(files.sarif, 'utf8')) as {
    runs: Array<{
      invocations: Array<{
        executionSuccessful: boolean;
        toolExecutionNotifications?: Array<{ message: { text: string } }>;
      }>;
    }>;
  };
  const valid = new Validator(JSON.parse(readFileSync(SARIF_SCHEMA, 'utf8')), '4', false).validate(sarif);
  t.ok(
    valid.valid,
    `SARIF valid against 2.1.0: ${valid.errors
      .slice(0, 3)
      .map((e) => e.error)
      .join('; ')}`,
  );
  t.equal(sarif.runs.length, 1, 'one run for the fleet (code scanning takes at most 20 runs a file)');
  t.equal(
    sarif.runs[0].invocations[0].executionSuccessful,
    false,
    'a run that did not succeed: one server was not checked',
  );
  t.match(
    sarif.runs[0].invocations[0].toolExecutionNotifications,
    [{ message: { text: /^needs-input: / } }],
    'the server not checked is said',
  );

  const junit = readFileSync(files.junit, 'utf8');
  t.equal((junit.match(/<testsuite /g) ?? []).length, 3, 'JUnit: a suite per server (no server lost)');
  t.match(
    junit,
    /<testsuite name="needs-input" tests="1" failures="0" errors="1" /,
    'the one not checked is an errored suite',
  );
  t.match(junit, /<testsuite name="notes"/);

  const html = readFileSync(files.html, 'utf8');
  t.equal((html.match(/<html/g) ?? []).length, 1, 'HTML: one document');
  t.equal((html.match(/<section id="server-\d+" class="server">/g) ?? []).length, 3, 'a section per server');
  const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
  t.same(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    [],
    'no element id twice',
  );

  const markdown = readFileSync(files.markdown, 'utf8');
  t.match(markdown, /^## mcp-pd-check: 3 servers from /);
  t.match(markdown, /^### notes: ✅/m);
  t.match(markdown, /^### notes-too: ✅/m);
  t.match(markdown, /^### needs-input: not checked/m);

  const github = readFileSync(files.github, 'utf8');
  t.match(
    github,
    /^::notice title=notes%3A mcp-pd-check%3A progressive disclosure yes::/m,
    'annotations name their server',
  );
  t.match(github, /^::error title=needs-input%3A not checked::/m);
  t.equal((JSON.parse(readFileSync(files.json, 'utf8')) as { servers: unknown[] }).servers.length, 3);
});

t.test(
  'a server that serves no descriptions in 2026-07-28 over HTTP: criteria 6-8 are not testable, never "served on demand"',
  async (t) => {
    const server = await startHttp(fixtureBundle('no-descriptions'));
    t.teardown(server.stop);
    const run = await runCli(['--format', 'json', '--explore', '0', '--url', server.url]);
    const report = JSON.parse(run.stdout) as CheckReport;
    const modern = report.eras?.find((e) => e.era === '2026-07-28');
    t.ok(modern?.checked, 'the 2026-07-28 era was checked');
    t.equal(modern?.verdict?.implements, 'no');
    t.notOk(modern?.verdict?.notApplicable, 'nothing said not to apply');
    const said = report.results
      .filter((r) => r.era === '2026-07-28')
      .flatMap((r) => r.findings.map((f) => f.message))
      .join('\n');
    t.notMatch(said, /served on demand/);
    // Both eras fail the same criteria here: "alike" is true. With different failures it must not be said.
    t.match(report.verdict?.summary ?? '', /^For clients of 2025-11-25 and 2026-07-28 alike — No: /);
    const { erasSentence } = await import('../src/core/verdict-sentence.js');
    const [legacy, later] = report.eras!.map((e) => e.verdict!);
    const differing = { ...later, failing: later.failing.slice(1) };
    t.notMatch(erasSentence([legacy, differing]), /alike/, 'the same words over different failures are not "alike"');
  },
);
