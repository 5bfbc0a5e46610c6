// First contact (issue 44): each case a new user met that gave a wrong step, a green where red was
// due, or a report that contradicts itself — one test each, every one failing on the code before.
import t from 'tap';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CheckReport } from '../src/generated/report.js';
import { CLI, fixtureBundle, REFERENCE, ROOT, runCli, startHttp, tempDir } from './helpers.js';

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

t.test(
  'lint of a folder with no *.json reads nothing: one line, exit 2; every lint report says how many files it read',
  async (t) => {
    const dir = tempDir();
    mkdirSync(join(dir, 'empty'));
    const empty = await runCli(['lint', join(dir, 'empty')]);
    t.equal(empty.code, 2, 'a usage error, not a pass');
    t.match(empty.stderr, /the folder '.*empty' holds no \*\.json file/);
    t.equal(empty.stderr.trim().split('\n').length, 1, 'one line');
    t.equal(empty.stdout, '', 'and no report that could be read as a pass');

    mkdirSync(join(dir, 'tool_descriptions'));
    for (const name of ['a', 'b'])
      writeFileSync(
        join(dir, 'tool_descriptions', `${name}.json`),
        JSON.stringify({ name, description: `Tool ${name}.` }),
      );
    const two = await runCli(['lint', '--no-color', join(dir, 'tool_descriptions')]);
    t.match(
      two.stdout.split('\n')[0],
      /tool_descriptions \(lint, 2 files read\)$/,
      'the text report says how many files it read',
    );
    const json = JSON.parse(
      (await runCli(['lint', '--format', 'json', join(dir, 'tool_descriptions')])).stdout,
    ) as CheckReport;
    t.equal(json.target.files, 2, 'and so does the JSON');
    t.same(readdirSync(join(dir, 'tool_descriptions')).length, 2);
  },
);

t.test('a quoted server command is split wherever it stands; flags after the command get a hint', async (t) => {
  const quoted = await runCli(['--format', 'json', '--only', 'mcp-ping', `node ${REFERENCE}`, '--fetch-limit', '0']);
  t.equal(
    quoted.code,
    0,
    `"node server.js" --flag runs node with server.js and the flag: ${quoted.stderr.slice(0, 300)}`,
  );
  t.match(JSON.parse(quoted.stdout).target.command, /node .*bundle\.js --fetch-limit 0$/);

  const after = await runCli(['--only', 'mcp-ping', '--no-color', 'node', REFERENCE, '--timeout', '9000']);
  t.match(
    after.stderr,
    /note: --timeout after the server command goes to the server, not to the checker; put them before the command/,
    'the hint names the flag',
  );
  const separated = await runCli(['--only', 'mcp-ping', '--no-color', '--', 'node', REFERENCE, '--timeout', '9000']);
  t.notMatch(separated.stderr, /after the server command/, "after --, the flags are plainly the server's");
});

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
  'options that contradict or do nothing alone are one line, exit 2, in the CLI and the library alike',
  async (t) => {
    for (const [args, said] of [
      [['--server', 'notes', '--', 'node', REFERENCE], /--server goes with --server-config FILE/],
      [['--jobs', '3', '--', 'node', REFERENCE], /--jobs goes with --server-config FILE/],
      [
        ['--safe-calls', '--allow-destructive', '--', 'node', REFERENCE],
        /--safe-calls and --allow-destructive cannot go together/,
      ],
    ] as const) {
      const run = await runCli([...args]);
      t.equal(run.code, 2, args.join(' '));
      t.match(run.stderr, said);
      t.equal(run.stderr.trim().split('\n').length <= 2, true, 'one line (and the pointer to --help)');
    }
    const { checkServer } = await import('../src/library/check-server.js');
    const { lint } = await import('../src/library/lint.js');
    const { InputError } = await import('../src/core/input-error.js');
    const command = ['node', REFERENCE];
    await t.rejects(
      checkServer({ command, timeoutMs: -1 }),
      new InputError('timeoutMs expects a whole number from 1 to 600000, got -1'),
    );
    await t.rejects(
      checkServer({ command, timeoutMs: 'abc' as unknown as number }),
      /timeoutMs expects a whole number/,
    );
    await t.rejects(checkServer({ command, sessions: 1 }), /sessions expects a whole number from 2 to 256, got 1/);
    await t.rejects(
      checkServer({ command, safeCalls: true, allowDestructive: true }),
      /safeCalls and allowDestructive cannot go together/,
    );
    await t.rejects(lint(['x'], { only: 'pd-' as unknown as string[] }), /only expects a list of strings/);
  },
);

t.test(
  'a settings file is JSONC; a syntax error says line and column; a misspelt setting gets a did-you-mean',
  async (t) => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'ok.json'),
      '{\n  // the reference server\n  "command": ["node", ' +
        JSON.stringify(REFERENCE) +
        '],\n  "only": ["mcp-ping"],\n}\n',
    );
    const ok = await runCli(['--config', join(dir, 'ok.json'), '--format', 'json']);
    t.equal(ok.code, 0, `comments and a trailing comma are fine: ${ok.stderr}`);
    writeFileSync(join(dir, 'broken.json'), '{\n  "only": ["mcp-ping"]\n  "failOn": "never"\n}\n');
    const broken = await runCli(['--config', join(dir, 'broken.json'), '--', 'node', REFERENCE]);
    t.equal(broken.code, 2);
    t.match(broken.stderr, /broken\.json is not valid JSON: line 3, column 3: a comma was expected/);
    writeFileSync(join(dir, 'typo.json'), '{ "comand": ["node", "x"] }');
    const typo = await runCli(['--config', join(dir, 'typo.json')]);
    t.equal(typo.code, 2);
    t.match(typo.stderr, /Unknown field 'comand' \(did you mean 'command'\?\)/);
  },
);

t.test(
  'init --env: the config reads each variable from the environment (never its value), and the written config runs the server with it',
  async (t) => {
    const dir = tempDir();
    // A server that will not start without its variable (as servers needing an API key do).
    const needy = [
      'node',
      '-e',
      'if ((process.env.NOTES_TOKEN ?? "").length !== 12) process.exit(9); import(process.argv[1])',
      REFERENCE,
    ];
    const init = await runCli([
      'init',
      '--out',
      dir,
      '--env',
      'NOTES_TOKEN=s3cret-value',
      '--env',
      'TZ=UTC',
      '--env',
      `HOME=${dir}`,
      '--',
      ...needy,
    ]);
    t.equal(init.code, 0, init.stderr);
    t.match(
      init.stdout,
      /The server needs its environment: the config reads it from the environment where the check runs, never the value: \$NOTES_TOKEN \(--env NOTES_TOKEN\)/,
    );
    t.match(
      init.stdout,
      /Written into the config as given \(nothing secret in their names or values\): TZ, HOME\./,
      'the summary says which are written as given',
    );
    const configText = readFileSync(join(dir, 'mcp-pd-check.config.json'), 'utf8');
    t.notMatch(configText, /s3cret-value/, 'the value is not in the committed config');
    t.same(
      JSON.parse(configText).env,
      { NOTES_TOKEN: '${NOTES_TOKEN}', TZ: 'UTC', HOME: dir },
      'only the secret one is a ${VAR}: the others run the server as the user did',
    );
    const checked = await runCli(
      ['--config', join(dir, 'mcp-pd-check.config.json'), '--only', 'mcp-ping', '--format', 'json'],
      { env: { NOTES_TOKEN: 's3cret-value' } },
    );
    t.equal(checked.code, 0, `step 3 of init's Next works as written: ${checked.stderr}`);
    const unset = await runCli(['--config', join(dir, 'mcp-pd-check.config.json'), '--only', 'mcp-ping'], {
      env: { NOTES_TOKEN: undefined },
    });
    t.equal(unset.code, 2);
    t.match(unset.stderr, /reads \$NOTES_TOKEN for the server, which is not set in this environment/);
  },
);

t.test(
  'init --from writes the config a live init writes (serve in front, a placeholder command); serve warns of REVIEW: texts',
  async (t) => {
    const dir = tempDir();
    const list = join(dir, 'tools.json');
    writeFileSync(
      list,
      JSON.stringify({
        tools: [
          {
            name: 'lookup',
            description: 'Looks a thing up.',
            inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
          },
        ],
      }),
    );
    const init = await runCli(['init', '--out', join(dir, 'pd'), '--from', list]);
    t.equal(init.code, 0, init.stderr);
    const config = JSON.parse(readFileSync(join(dir, 'pd', 'mcp-pd-check.config.json'), 'utf8')) as {
      command: string[];
    };
    t.same(
      config.command.slice(0, 5),
      ['mcp-pd-check', 'serve', '--descriptions', '.', '--'],
      'the serve --descriptions shape',
    );
    t.match(config.command.slice(5).join(' '), /^node REVIEW: /, 'and the command to fill in');

    // serve with that folder (still unreviewed) in front of a server that lists the tool.
    const upstream = join(dir, 'upstream.mjs');
    writeFileSync(
      upstream,
      `import { McpServer } from ${JSON.stringify(join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'server', 'mcp.js'))};
import { StdioServerTransport } from ${JSON.stringify(join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'server', 'stdio.js'))};
const s = new McpServer({ name: 'u', version: '1' });
s.registerTool('lookup', { description: 'Looks a thing up.' }, () => ({ content: [{ type: 'text', text: 'x' }] }));
await s.connect(new StdioServerTransport());`,
    );
    const served = await runCli([
      '--only',
      'mcp-ping',
      '--',
      'node',
      CLI,
      'serve',
      '--descriptions',
      join(dir, 'pd'),
      '--',
      'node',
      upstream,
    ]);
    t.equal(served.code, 0, served.stderr);
    const serve = await runCli(['serve', '--descriptions', join(dir, 'pd'), '--', 'node', upstream], {});
    t.match(
      serve.stderr,
      /serve: warning: the descriptions of 'lookup' still hold REVIEW: placeholders/,
      'said when serve starts',
    );
  },
);

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

t.test(
  'https:// to a plain-HTTP port: one line in words, no OpenSSL trace, nothing "said on stderr" by an HTTP server',
  async (t) => {
    const server = await startHttp(REFERENCE);
    t.teardown(server.stop);
    const run = await runCli(['--url', server.url.replace('http:', 'https:')]);
    t.equal(run.code, 3);
    t.match(run.stderr, /does not answer TLS: is it plain HTTP\? \(try http:\/\/ instead of https:\/\/\)/);
    t.notMatch(run.stderr, /openssl|ssl3_get_record|said on stderr/i);
    t.equal(run.stderr.trim().split('\n').length, 1, 'one line');
  },
);

t.test('text is clipped between words, never inside one, when a space is near', async (t) => {
  const { clip } = await import('../src/util/text.js');
  t.equal(clip('the server did not answer initialize within the time', 30), 'the server did not answer…');
  t.equal(
    clip('averyveryverylongwordwithoutanyspaceinit', 12),
    'averyveryve…',
    'one long word is cut where it must be',
  );
  t.equal(clip('short', 30), 'short');
});
