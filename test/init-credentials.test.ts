// `mcp-pd-check init --url`: the config it writes keeps $VARIABLES, and no header value or credential
// of the URL is ever written or printed.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE, runCli, startHttp, tempDir } from './helpers.js';
import { snapshot } from './support/folder-snapshot.js';

t.test('init --url: the config keeps $VARIABLES, never a header value or a credential of the URL', async (t) => {
  const token = 'tok-3f9a1c7e5b2d8046';
  const server = await startHttp(REFERENCE, { MCP_PD_REFERENCE_TOKEN: token });
  t.teardown(() => server.stop());
  const out = join(tempDir(), 'pd');
  const literal = 'literal-key-71c4e2a9d05b';
  const url = new URL(server.url);
  url.username = 'someone';
  url.password = 'pw-9e8d7c6b5a';
  const run = await runCli(
    [
      'init',
      '--out',
      out,
      '--url',
      server.url,
      '--header',
      'Authorization: Bearer $PD_TOKEN',
      '--header',
      `X-Api-Key: ${literal}`,
    ],
    { env: { PD_TOKEN: token } },
  );
  t.equal(run.code, 0, run.stderr);
  const config = JSON.parse(readFileSync(join(out, 'mcp-pd-check.config.json'), 'utf8')) as {
    url: string;
    headers: Record<string, string>;
  };
  t.equal(config.url, server.url);
  t.same(config.headers, {
    Authorization: 'Bearer $PD_TOKEN',
    'X-Api-Key': 'REVIEW: the X-Api-Key value from an environment variable, e.g. $X_API_KEY',
  });
  const everything = snapshot(out) + run.stdout + run.stderr;
  t.notOk(everything.includes(token) || everything.includes(literal), 'no header value is written or printed');

  const withCredentials = join(tempDir(), 'pd');
  const run2 = await runCli(
    [
      'init',
      '--out',
      withCredentials,
      '--url',
      `${url.href}?key=qv-55aa33`,
      '--header',
      'Authorization: Bearer $PD_TOKEN',
    ],
    { env: { PD_TOKEN: token } },
  );
  t.equal(run2.code, 0, run2.stderr);
  const config2 = JSON.parse(readFileSync(join(withCredentials, 'mcp-pd-check.config.json'), 'utf8')) as {
    url: string;
  };
  t.match(
    config2.url,
    /^REVIEW: http:\/\/127\.0\.0\.1:\d+\/mcp\?key=%E2%80%A6 \(credentials and query values were left out/,
  );
  const all2 = snapshot(withCredentials) + run2.stdout;
  t.notOk(
    all2.includes('pw-9e8d7c6b5a') || all2.includes('qv-55aa33'),
    'no password or query value of the URL is written or printed',
  );
});
