import t from 'tap';
import { startHttpServer } from '../reference-server/http.js';
import { MAX_NAMES_PER_FETCH } from '../src/protocol/server/limits.js';
import { HttpWire } from '../src/transport/http.js';
import { McpSession } from '../src/transport/session.js';
import type { Exchange, JsonObject } from '../src/transport/types.js';
import { REFERENCE, runCli } from './helpers.js';

const BASE = 'resource:///tool_descriptions';

/** An initialized session of the checker's own raw client (it keeps every reply as it came). */
async function open(url: string, label: string): Promise<McpSession> {
  const session = new McpSession(new HttpWire(new URL(url), {}), { label, timeoutMs: 5000 });
  await session.initialize();
  return session;
}

const errorOf = (ex: Exchange) =>
  ex.response?.error as { code: number; message: string; data?: JsonObject } | undefined;
const textOf = (ex: Exchange) =>
  JSON.parse((ex.response?.result as { content: Array<{ text: string }> }).content[0].text) as JsonObject;
const refused = (ex: Exchange) => JSON.stringify(ex.response).includes('TOOL_DESCRIPTION_REQUIRED');

t.test('description fetches are rate limited per session, with a clear error that authorizes nothing', async (t) => {
  const server = await startHttpServer({ port: 0, fetchLimit: 3 });
  t.teardown(() => server.close());
  const a = await open(server.url, 'a');
  const b = await open(server.url, 'b');
  t.teardown(() => Promise.all([a.close(), b.close()]));
  for (const tool of ['list_notes', 'get_note', 'search_notes'])
    t.notOk(errorOf(await a.readResource(`${BASE}?tools=${tool}`)), `fetch of ${tool} allowed`);
  const limited = await a.readResource(`${BASE}?tools=create_note`);
  const error = errorOf(limited);
  t.equal(error?.code, -32000, 'the fourth fetch in a minute is refused (dashdash §5.3 shape)');
  t.match(
    error?.message,
    /^Rate limit exceeded: at most 3 tool description fetches per minute per session; retry after \d+ s$/,
  );
  t.match(error?.data, { code: 'RATE_LIMITED', limit: 3 });
  t.ok(Number(error?.data?.retryAfter) >= 1 && Number(error?.data?.retryAfter) <= 60);
  t.ok(refused(await a.callTool('create_note', { title: 'x', body: 'y' })), 'the refused fetch authorized nothing');
  t.notOk(refused(await a.callTool('list_notes', {})), 'earlier grants still stand');
  t.notOk(errorOf(await b.readResource(`${BASE}?tools=create_note`)), 'another session has its own budget');
  t.notOk(refused(await b.callTool('create_note', { title: 'x', body: 'y' })));
});

t.test('bad requests get clear errors; the server stays up and other sessions are unaffected', async (t) => {
  const server = await startHttpServer({ port: 0 });
  t.teardown(() => server.close());
  const a = await open(server.url, 'a');
  const bystander = await open(server.url, 'bystander');
  t.teardown(() => Promise.all([a.close(), bystander.close()]));
  t.notOk(errorOf(await bystander.readResource(`${BASE}?tools=get_note`)));

  const many = Array.from({ length: 10_000 }, (_, i) => `tool_${i}`).join(',');
  const tooMany = errorOf(await a.readResource(`${BASE}?tools=${many}`));
  t.equal(tooMany?.code, -32602, '10,000 names in one fetch: invalid params');
  t.equal(
    tooMany?.message,
    `Too many tools in one fetch: 10000 (at most ${MAX_NAMES_PER_FETCH}); fetch them in smaller groups`,
  );

  const notFound = errorOf(await a.readResource('resource:///nope?tools=get_note'));
  t.equal(notFound?.code, -32002, 'another resource: resource not found');
  t.match(notFound?.message, /^Resource not found: resource:\/\/\/nope/);
  const garbled = await a.readResource(`${BASE}?tools=%E0%A4%A,%ZZ,get_note`);
  t.notOk(errorOf(garbled), 'malformed percent-encoding is read leniently');
  t.match(JSON.parse((garbled.response!.result as { contents: Array<{ text: string }> }).contents[0].text), {
    get_note: { name: 'get_note' },
  });
  t.same(
    errorOf(await a.request('resources/read', { uri: 42 })),
    { code: -32602, message: 'Invalid params: params.uri: Invalid input: expected string, received number' },
    'a URI that is not a string: invalid params, in one line',
  );

  t.notOk(errorOf(await a.readResource(`${BASE}?tools=get_note`)));
  const invalid = await a.callTool('get_note', { id: 'not-a-note-id', extra: true });
  t.equal(
    (invalid.response?.result as JsonObject).isError,
    true,
    'invalid arguments after authorization: a tool error',
  );
  t.match(textOf(invalid), {
    error: { code: 'INVALID_ARGUMENTS', message: /Invalid arguments for get_note: .*must match pattern/ },
  });
  t.match(
    errorOf(await a.request('no/such/method')),
    { code: -32601, message: /Method not found: no\/such\/method/ },
    'unknown method',
  );
  t.match(
    errorOf(await a.callTool('no_such_tool', {})),
    { code: -32602, message: /Unknown tool: no_such_tool/ },
    'unknown tool',
  );

  t.notOk(
    refused(await bystander.callTool('get_note', { id: 'note-1' })),
    'the bystander session still works, with its grant',
  );
  t.ok(refused(await bystander.callTool('list_notes', {})), 'and only its grant');
  const late = await open(server.url, 'late');
  t.ok(refused(await late.callTool('get_note', { id: 'note-1' })), 'a new session starts bare');
  await late.close();
});

t.test('HTTP: a session cap with a clear 503, idle sessions closed, malformed bodies refused', async (t) => {
  const server = await startHttpServer({ port: 0, maxSessions: 2, idleMs: 300 });
  t.teardown(() => server.close());
  const first = await open(server.url, '1');
  await open(server.url, '2');
  const third = new McpSession(new HttpWire(new URL(server.url), {}), { label: '3', timeoutMs: 5000 });
  await t.rejects(
    third.initialize(),
    /HTTP 503 Service Unavailable: .*Too many sessions \(2\); try again later/,
    'a third session is refused',
  );
  t.equal(server.sessions(), 2);

  // The sweeper closes sessions idle longer than idleMs (it runs every idleMs).
  await new Promise((done) => setTimeout(done, 900));
  t.equal(server.sessions(), 0, 'idle sessions were closed');
  const gone = await first.request('tools/list');
  t.match(gone.note, /HTTP 404 Not Found \(the server no longer knows this session\)/, 'a closed session answers 404');
  const fresh = await open(server.url, 'fresh');
  t.ok(fresh.initializeResult, 'room for new sessions again');
  await fresh.close();

  const bad = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{"jsonrpc":',
  });
  t.equal(bad.status, 400);
  t.match(await bad.json(), { error: { message: 'body is not JSON' } });
  const huge = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `"${'x'.repeat(2 * 1024 * 1024)}"`,
  });
  t.equal(huge.status, 413, 'a body over 1 MB is refused');
});

t.test('--fetch-limit: validated, and the reference still passes every check with the default', async (t) => {
  const bad = await runCli(['--', 'node', REFERENCE, '--fetch-limit', 'lots']);
  t.equal(bad.code, 3, 'a server that exits at once cannot be checked');
  t.match(bad.stderr, /--fetch-limit expects a whole number \(0: no limit\), got 'lots'/, 'and the checker relays why');
});
