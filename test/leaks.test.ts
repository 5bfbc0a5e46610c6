// No secret leaks: the server gets a default environment, not the checker's; what is passed to it on
// purpose (--inherit-env, --env, keys as arguments, --header values, credentials in --url) is masked in
// every report format, and init writes ${VAR} in its place.
import t, { type Test } from 'tap';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { reportSchemaErrors, startHttp, tempDir } from './helpers.js';
import { BEARER, DB_PASSWORD, GITHUB_LIKE, SECRET_ENV, TOKEN } from './support/fake-secrets.js';
import { assertVerdict, BOUNDS, HOSTILE, runBounded, survivors, type Run } from './support/hostile.js';

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
  t.same(survivors('env-echo', run), []);
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
