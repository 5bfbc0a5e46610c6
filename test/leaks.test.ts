import t, { type Test } from 'tap';
import { execFileSync, spawn } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { CLI, reportSchemaErrors, ROOT, startHttp, tempDir } from './helpers.js';
import { assertVerdict, BOUNDS, HOSTILE, runBounded, survivors, type Run } from './support/hostile.js';

/** Fake secrets, as a CI job would hold them. */
const TOKEN = 'tok_4f9a8b7c6d5e4f3a2b1c0d';
const DB_PASSWORD = 'pw9f8e7d6c5b4a';
const BEARER = 'abcdefghijklmnop1234567890';
const GITHUB_LIKE = `ghp_${'x1Y2z3'.repeat(6)}`;
const SECRET_ENV = { MCP_PD_FAKE_API_TOKEN: TOKEN, DATABASE_URL: `postgres://app:${DB_PASSWORD}@db.example/app` };
const FORMATS = ['json', 'junit', 'sarif', 'github', 'markdown', 'html', 'text'];

/** Runs with every report format written to a file; returns the run and every text it produced. */
async function runAllFormats(
  args: string[],
  env: Record<string, string> = SECRET_ENV,
): Promise<{ run: Run; outputs: Record<string, string> }> {
  const dir = tempDir();
  const files = Object.fromEntries(FORMATS.map((f) => [f, join(dir, `report.${f}`)]));
  const reports = Object.entries(files).flatMap(([f, file]) => ['--report', `${f}=${file}`]);
  const dash = args.indexOf('--');
  const withReports = dash < 0 ? [...args, ...reports] : [...args.slice(0, dash), ...reports, ...args.slice(dash)];
  const run = await runBounded(['--format', 'json', ...withReports], env);
  const outputs: Record<string, string> = { stdout: run.stdout, stderr: run.stderr };
  for (const [f, file] of Object.entries(files)) if (existsSync(file)) outputs[f] = readFileSync(file, 'utf8');
  return { run, outputs };
}

function assertNoSecret(t: Test, outputs: Record<string, string>, secrets: string[]): void {
  for (const [name, text] of Object.entries(outputs)) {
    for (const secret of secrets) t.notOk(text.includes(secret), `${name}: does not contain ${secret.slice(0, 6)}…`);
  }
}

t.test("the server gets a default environment, not the checker's", async (t) => {
  const { run, outputs } = await runAllFormats([...BOUNDS, '--', 'node', join(HOSTILE, 'env-echo.js')]);
  const report = assertVerdict(t, run, 1);
  const said = JSON.stringify(report);
  t.match(said, /MCP_PD_CHECK_RUN/, 'the echo of its environment is in the report (so the test can see it)');
  t.match(said, /\\"PATH\\"/, 'PATH is passed, as MCP clients do');
  t.notMatch(said, /MCP_PD_FAKE_API_TOKEN|DATABASE_URL/, "the checker's other variables never reach the server");
  t.match(said, /\[redacted a GitHub token\]/, 'a credential the server made up is masked by its shape');
  assertNoSecret(t, outputs, [TOKEN, DB_PASSWORD, GITHUB_LIKE]);
  t.same(survivors('env-echo'), []);
});

t.test('--inherit-env and --env KEY pass secrets through; no report of any format shows them', async (t) => {
  for (const how of [['--inherit-env'], ['--env', 'MCP_PD_FAKE_API_TOKEN', '--env', 'DATABASE_URL']]) {
    const { run, outputs } = await runAllFormats([...BOUNDS, ...how, '--', 'node', join(HOSTILE, 'env-echo.js')]);
    const report = assertVerdict(t, run, 1) as CheckReport;
    t.same(reportSchemaErrors(report), []);
    t.match(
      JSON.stringify(report),
      /\[redacted \$MCP_PD_FAKE_API_TOKEN\]/,
      `${how[0]}: the server had the token, and the report shows where it was masked`,
    );
    t.match(JSON.stringify(report), /\[redacted \$DATABASE_URL\]/, `${how[0]}: the password in a URL is masked`);
    for (const f of FORMATS) t.ok(outputs[f], `${f} written`);
    assertNoSecret(t, outputs, [TOKEN, DB_PASSWORD, GITHUB_LIKE]);
  }
});

t.test('a server that dies quoting its environment: the error line masks the secrets', async (t) => {
  const run = await runBounded(
    [...BOUNDS, '--inherit-env', '--', 'node', join(HOSTILE, 'env-echo.js'), '--die'],
    SECRET_ENV,
  );
  assertVerdict(t, run, 3);
  t.match(run.stderr, /\[redacted \$MCP_PD_FAKE_API_TOKEN\]/);
  assertNoSecret(t, { stderr: run.stderr, stdout: run.stdout }, [TOKEN, DB_PASSWORD]);
});

t.test(
  'keys given to the server as arguments: masked in every output, and init writes ${VAR} in their place',
  async (t) => {
    // A vendor's own prefix: no shape gives it away, only the flag that carries it.
    const ACCESS = 'tvly-dev-9f8e7d6c5b4a3210';
    const API_KEY = 'vendorkey-0a1b2c3d4e5f';
    const server = ['node', join(HOSTILE, 'env-echo.js'), `--access-token=${ACCESS}`, '--api-key', API_KEY];
    const { run, outputs } = await runAllFormats([...BOUNDS, '--', ...server], {});
    const report = assertVerdict(t, run, 1) as CheckReport;
    t.match(JSON.stringify(report), /\[redacted --access-token\]/, 'the report shows where the key was masked');
    t.match(
      report.target.command,
      /--api-key "\$\{API_KEY\}"/,
      'the command in the report holds a placeholder the shell reads from the environment, never the key',
    );
    assertNoSecret(t, outputs, [ACCESS, API_KEY]);

    const out = tempDir();
    const init = await runBounded(['init', '--out', out, '--', ...server], {});
    t.equal(init.code, 0, init.stderr);
    assertNoSecret(t, { stdout: init.stdout, stderr: init.stderr }, [ACCESS, API_KEY]);
    t.match(
      init.stdout,
      /\$ACCESS_TOKEN \(--access-token\), \$API_KEY \(--api-key\)/,
      'init says which variables to set',
    );
    const written = execFileSync('find', [out, '-type', 'f']).toString().trim().split('\n');
    assertNoSecret(t, Object.fromEntries(written.map((f) => [f, readFileSync(f, 'utf8')])), [ACCESS, API_KEY]);
    const config = JSON.parse(readFileSync(join(out, 'mcp-pd-check.config.json'), 'utf8')) as { command: string[] };
    t.same(
      config.command.slice(-3),
      ['--access-token=${ACCESS_TOKEN}', '--api-key', '${API_KEY}'],
      'the config reads them from the environment',
    );
    const lint = await runBounded(['lint', '--format', 'json', '--only', 'lint-no-secrets', out]);
    t.equal(lint.code, 0, 'the lint finds nothing to publish in what init wrote');

    // The config runs with the variables set, and says which is missing otherwise.
    const checked = await runBounded(
      ['--format', 'json', ...BOUNDS, '--config', join(out, 'mcp-pd-check.config.json')],
      { ACCESS_TOKEN: ACCESS, API_KEY },
    );
    t.equal(checked.code, 0, `the config's check runs (through serve): ${checked.stderr}`);
    t.match(
      checked.stdout,
      /\[redacted \$API_KEY\]|\[redacted --api-key\]/,
      'the server got the key; the report masks it',
    );
    assertNoSecret(t, { stdout: checked.stdout, stderr: checked.stderr }, [ACCESS, API_KEY]);
    const unset = await runBounded(['--config', join(out, 'mcp-pd-check.config.json')], {});
    t.equal(unset.code, 2, 'a variable the config needs and the environment lacks is a usage error');
    t.match(unset.stderr, /reads \$ACCESS_TOKEN for the server, which is not set in this environment/);

    // A key written literally into a config is found by the lint.
    const leaky = join(tempDir(), 'mcp-pd-check.config.json');
    writeFileSync(leaky, JSON.stringify({ command: ['node', 'server.js', '--api-key', API_KEY] }));
    const found = await runBounded([
      'lint',
      '--format',
      'json',
      '--fail-on',
      'warning',
      '--only',
      'lint-no-secrets',
      leaky,
    ]);
    t.equal(found.code, 1, "lint-no-secrets finds a literal key in a config's command (a RECOMMENDED rule: a warning)");
    t.match(found.stdout, /passes --api-key a literal value/);
    t.notOk(found.stdout.includes(API_KEY), 'and shows it masked');
  },
);

t.test('--header values are masked in every format, whatever the server echoes', async (t) => {
  const server = await startHttp(join(HOSTILE, 'http-echo-headers.js'));
  t.teardown(() => server.stop());
  const { run, outputs } = await runAllFormats([
    ...BOUNDS,
    '--url',
    server.url,
    '--header',
    'X-Api-Key: $MCP_PD_FAKE_API_TOKEN',
    '--header',
    `Authorization: Bearer ${BEARER}`,
  ]);
  const report = assertVerdict(t, run, 1);
  t.match(
    JSON.stringify(report),
    /\[redacted --header (X-Api-Key|Authorization)\]/,
    'the echoed headers are in the report, masked',
  );
  t.match(JSON.stringify(report), /bad request; you sent/, 'the 400 body quoting them is reported, masked');
  assertNoSecret(t, outputs, [TOKEN, BEARER]);
});

t.test('user:password@ and query values of --url: sent as Basic auth, masked in every format', async (t) => {
  const server = await startHttp(join(HOSTILE, 'http-echo-headers.js'));
  t.teardown(() => server.stop());
  const url = new URL(server.url);
  url.username = 'app';
  url.password = DB_PASSWORD;
  url.searchParams.set('api_key', TOKEN);
  const { run, outputs } = await runAllFormats([...BOUNDS, '--url', url.href], {});
  const report = assertVerdict(t, run, 1);
  t.match(
    JSON.stringify(report),
    /\[redacted --header Authorization\]/,
    'the password travelled as Basic auth (echoed, masked)',
  );
  assertNoSecret(t, outputs, [DB_PASSWORD, TOKEN, Buffer.from(`app:${DB_PASSWORD}`).toString('base64')]);
});

/** A listener on another port: another origin, which must never hear from the checker. */
async function elsewhere(t: Test): Promise<{ url: string; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const listener = createServer((req, res) => {
    requests.push(req);
    res.end('{}');
  });
  await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
  t.teardown(() => new Promise<void>((done) => listener.close(() => done())));
  return { url: `http://127.0.0.1:${(listener.address() as { port: number }).port}`, requests };
}

t.test('a redirect to another origin stops the run: no header reaches it, and the line names it', async (t) => {
  const other = await elsewhere(t);
  const server = await startHttp(join(HOSTILE, 'http-redirects.js'), { REDIRECT_TO: `${other.url}/mcp` });
  t.teardown(() => server.stop());
  const run = await runBounded(
    [...BOUNDS, '--url', server.url, '--header', 'X-Api-Key: $MCP_PD_FAKE_API_TOKEN'],
    SECRET_ENV,
  );
  assertVerdict(t, run, 3);
  t.match(
    run.stderr,
    new RegExp(
      `redirected \\(HTTP 308\\) to ${other.url.replace(/[.]/g, '\\.')}/mcp, another origin.*pass --url ${other.url.replace(/[.]/g, '\\.')}/mcp`,
    ),
  );
  t.equal(other.requests.length, 0, 'the other origin received no request at all');
  t.notOk(run.stderr.includes(TOKEN));
});

t.test('a redirect within the same origin is followed', async (t) => {
  const server = await startHttp(join(HOSTILE, 'http-redirects.js'));
  t.teardown(() => server.stop());
  const run = await runBounded(['--format', 'json', ...BOUNDS, '--url', server.url.replace(/\/mcp$/, '/moved')]);
  const report = assertVerdict(t, run, 1);
  t.equal(
    report?.results.find((r) => r.id === 'mcp-tool-names')?.status,
    'pass',
    'the server behind the redirect was checked',
  );
});

t.test('a 401 pointing to another origin is named, and nothing is fetched from it', async (t) => {
  const other = await elsewhere(t);
  const metadata = `${other.url}/.well-known/oauth-protected-resource`;
  const server = await startHttp(join(HOSTILE, 'http-redirects.js'), { AUTH_ELSEWHERE: metadata });
  t.teardown(() => server.stop());
  const run = await runBounded([...BOUNDS, '--url', server.url]);
  assertVerdict(t, run, 3);
  t.match(
    run.stderr,
    /HTTP 401 Unauthorized: the server requires authorization; it asks for Bearer credentials and points to http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource \(another origin\), which mcp-pd-check did not contact/,
  );
  t.equal(other.requests.length, 0);
});

t.test('helpers that ignore SIGTERM and drop the run marker die with their session', async (t) => {
  const pids = join(tempDir(), 'helpers.txt');
  const run = await runBounded([
    '--format',
    'json',
    ...BOUNDS,
    '--env',
    `HELPER_PIDS=${pids}`,
    '--',
    'node',
    join(HOSTILE, 'sigterm-proof-helpers.js'),
  ]);
  assertVerdict(t, run, 1);
  const started = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
  t.ok(started.length >= 2, `the helpers ran (${started.length} started, two per session)`);
  // A killed process may take a moment to be reaped by init.
  let alive = started;
  for (let i = 0; i < 20 && alive.length; i++) {
    alive = started.filter(
      (pid) => existsSync(`/proc/${pid}`) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8')),
    );
    if (alive.length) await new Promise((done) => setTimeout(done, 100));
  }
  t.same(alive, [], 'no helper is alive after the run');
  t.same(survivors('sigterm-proof-helpers'), []);
});

/** A folder to lint with a FIFO, links out of it, a loop and a self-link, next to "private" files. */
function hostileFolder(): { dir: string; outside: string } {
  const root = tempDir();
  const outside = join(root, 'outside');
  const dir = join(root, 'project', 'tool_descriptions');
  mkdirSync(outside, { recursive: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(outside, 'shadow'), 'root:$6$saltsalt$hashhashhashhash:19000:0:99999:7:::\n');
  writeFileSync(
    join(outside, 'private.json'),
    JSON.stringify({ name: 'outside_tool', inputSchema: { type: 'object' }, password: 'hunter2hunter2' }),
  );
  writeFileSync(
    join(dir, 'good.json'),
    JSON.stringify({ name: 'good', description: 'A good tool.', inputSchema: { type: 'object' } }),
  );
  execFileSync('mkfifo', [join(dir, 'pipe.json')]);
  symlinkSync(join(outside, 'shadow'), join(dir, 'shadow.json'));
  symlinkSync(join(outside, 'private.json'), join(dir, 'private.json'));
  symlinkSync(outside, join(dir, 'elsewhere'));
  symlinkSync('.', join(dir, 'loop'));
  symlinkSync('self.json', join(dir, 'self.json'));
  symlinkSync('good.json', join(dir, 'alias.json'));
  return { dir, outside };
}

t.test('lint: a FIFO is not opened, links out are not followed, loops are reported once', async (t) => {
  const { dir } = hostileFolder();
  for (const args of [[dir], [join(dir, '*.json')]]) {
    const run = await runBounded(['lint', '--format', 'json', ...args]);
    t.notOk(run.killed, `${args[0]}: finished (took ${Math.round(run.ms)} ms)`);
    t.equal(run.code, 1, 'exit 1: the FIFO is an error');
    const report = JSON.parse(run.stdout) as CheckReport;
    t.same(reportSchemaErrors(report), []);
    const messages = report.results.flatMap((r) => r.findings.map((f) => f.message)).join('\n');
    t.match(messages, /pipe\.json is a named pipe \(FIFO\), not a regular file; it was not opened/);
    t.match(messages, /shadow\.json is a symlink that was not followed: it points outside the linted folder/);
    t.match(messages, /private\.json is a symlink that was not followed/);
    t.match(messages, /self\.json is a symlink loop/);
    if (args[0] === dir) {
      t.match(messages, /elsewhere is a symlink that was not followed/, 'a folder link out is not followed');
      t.equal(messages.match(/loop is a symlink loop/g)?.length, 1, 'the folder loop is reported once');
    }
    for (const text of [run.stdout, run.stderr]) {
      t.notMatch(text, /root:|\$6\$|hashhash|outside_tool|hunter2/, 'nothing from outside the folder is printed');
    }
    t.equal(
      report.results
        .find((r) => r.id === 'lint-tool-descriptions')
        ?.findings.filter((f) => /two tool descriptions/i.test(f.message)).length,
      0,
      'a link to a file inside is linted once',
    );
  }
});

t.test('lint: SIGTERM ends a lint promptly, whatever it is doing', async (t) => {
  const dir = join(tempDir(), 'tool_descriptions');
  mkdirSync(dir);
  for (let i = 0; i < 4000; i++)
    writeFileSync(
      join(dir, `tool_${i}.json`),
      JSON.stringify({
        name: `tool_${i}`,
        description: 'A tool.',
        inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
        examples: [{ description: 'x', input: { a: 'b' } }],
      }),
    );
  const child = spawn(process.execPath, [CLI, 'lint', dir], { cwd: ROOT, stdio: 'ignore' });
  await new Promise((done) => setTimeout(done, 300));
  const sent = performance.now();
  child.kill('SIGTERM');
  const signal = await new Promise<NodeJS.Signals | null>((done) => {
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      done(null);
    }, 120_000);
    child.on('exit', (code, sig) => {
      clearTimeout(guard);
      done(code === null ? sig : null);
    });
  });
  t.ok(
    signal === 'SIGTERM' || child.exitCode !== null,
    `the lint ended on SIGTERM (after ${Math.round(performance.now() - sent)} ms; a hang guard, not a timing test)`,
  );
});

t.test("CI log commands in a lint file's name and content are broken in every format", async (t) => {
  const dir = join(tempDir(), 'tool_descriptions');
  mkdirSync(dir);
  const name = 'x##vso[task.setvariable variable=y]z';
  writeFileSync(
    join(dir, `${name}.json`),
    JSON.stringify({ name: '::set-output name=a::b ##[error]c', inputSchema: { type: 'object' } }),
  );
  for (const format of ['text', 'github', 'json', 'markdown', 'junit', 'sarif', 'html']) {
    const run = await runBounded(['lint', '--format', format, dir]);
    t.equal(run.code, 1, `${format}: a verdict`);
    const body = format === 'github' ? run.stdout.replace(/^::(error|warning|notice) [^:]*::/gm, '') : run.stdout;
    t.notMatch(body, /##(vso)?\[/i, `${format}: no Azure command anywhere`);
    t.notMatch(body, /::set-output/i, `${format}: no GitHub command anywhere`);
  }
});

t.test('under GitHub Actions, a text report on stdout is fenced off from the command parser', async (t) => {
  const run = await runBounded(
    ['--timeout', '5000', '--explore', '0', '--', 'node', join(ROOT, 'dist', 'reference-server', 'bundle.js')],
    { GITHUB_ACTIONS: 'true' },
  );
  const token = /^::stop-commands::([0-9a-f-]{36})\n/.exec(run.stdout)?.[1];
  t.ok(token, 'the report opens with ::stop-commands::<random token>');
  t.ok(run.stdout.endsWith(`::${token}::\n`), 'and resumes commands at its end only');
});
