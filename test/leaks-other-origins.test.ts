// Another origin never hears from the checker: a redirect to it stops the run with no header sent, a
// redirect within the same origin is followed, and a 401 pointing elsewhere is named, never fetched.
import t, { type Test } from 'tap';
import { createServer, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { startHttp } from './helpers.js';
import { SECRET_ENV, TOKEN } from './support/fake-secrets.js';
import { assertVerdict, BOUNDS, HOSTILE, runBounded } from './support/hostile.js';

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
