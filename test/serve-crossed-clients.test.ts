// `serve --listen` with several clients at once (issue 41), in front of an upstream that records every
// call it receives (test/support/recording-upstream): one client never sees, answers or steers another's
// traffic. An elicitation reaches the client whose call raised it, and only that client's answer reaches
// the upstream; progress goes to the client that asked, on its own request's stream.
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { MODERN_ERA, modernHeaders } from '../src/transport/era.js';
import { INIT, listening, logFile, RESOURCE } from './support/serve-recording.js';

async function sdkClient(url: string, name: string, onElicit?: () => Record<string, unknown>): Promise<Client> {
  const client = new Client({ name, version: '1' }, { capabilities: { elicitation: {} } });
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, async () => onElicit() as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

t.test(
  "crossed clients: an elicitation raised by A's call reaches A only, and only A's answer reaches the upstream",
  async (t) => {
    const log = logFile();
    const server = await listening({ RECORD_LOG: log.path });
    t.teardown(server.stop);
    const elicited: string[] = [];
    const a = await sdkClient(server.url, 'A', () => {
      elicited.push('A');
      return { action: 'accept', content: { name: 'Ada' } };
    });
    const b = await sdkClient(server.url, 'B', () => {
      elicited.push('B');
      return { action: 'accept', content: { name: 'Bob' } };
    });
    t.teardown(() => Promise.all([a.close(), b.close()]));
    await a.readResource({ uri: `${RESOURCE}?tools=ask_user` });
    const call = a.callTool({ name: 'ask_user', arguments: { text: 'A' } });
    // B is active while A's call waits for its elicitation (the proxy once sent it to the most recently active client).
    await b.listTools();
    const result = await call;
    t.same(elicited, ['A'], 'the elicitation went to A alone');
    t.match(JSON.stringify(result), /Ada/, "A's tool got A's answer");
  },
);

t.test("crossed clients: B cannot answer A's elicitation (id 0), nor can a POST without a session", async (t) => {
  const log = logFile();
  const server = await listening({ RECORD_LOG: log.path });
  t.teardown(server.stop);
  // A's answer waits until the forged ones were sent: the upstream's request is open all that time.
  let asked = () => {};
  const wasAsked = new Promise<void>((resolve) => {
    asked = resolve;
  });
  let release = () => {};
  const forgedSent = new Promise<void>((resolve) => {
    release = resolve;
  });
  const a = new Client({ name: 'A', version: '1' }, { capabilities: { elicitation: {} } });
  a.setRequestHandler(ElicitRequestSchema, async () => {
    asked();
    await forgedSent;
    return { action: 'accept', content: { name: 'Ada' } };
  });
  await a.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  t.teardown(() => a.close());
  // B: a raw session.
  const init = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT }),
  });
  const sid = init.headers.get('mcp-session-id')!;
  await init.text();
  await a.readResource({ uri: `${RESOURCE}?tools=ask_user` });
  const call = a.callTool({ name: 'ask_user', arguments: { text: 'A' } });
  await wasAsked;
  // The upstream numbers its requests from 0, as the SDKs do.
  const forged = { jsonrpc: '2.0', id: 0, result: { action: 'accept', content: { name: 'Mallory' } } };
  const fromB = await fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sid,
    },
    body: JSON.stringify(forged),
  });
  await fromB.text();
  const noSession = await fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...modernHeaders(forged),
      'mcp-protocol-version': MODERN_ERA,
    },
    body: JSON.stringify(forged),
  });
  t.equal(noSession.status, 400, 'an answer without a session is refused');
  await noSession.text();
  release();
  const result = await call;
  t.notMatch(JSON.stringify(result), /Mallory/, "A's tool never got the forged answer");
  t.match(JSON.stringify(result), /Ada/, "it got A's own");
});

t.test('crossed clients: two clients with the same progress token each get their own progress', async (t) => {
  const log = logFile();
  const server = await listening({ RECORD_LOG: log.path });
  t.teardown(server.stop);
  // The SDK uses the request id as the progress token: two clients' first calls share it.
  const a = await sdkClient(server.url, 'A');
  const b = await sdkClient(server.url, 'B');
  t.teardown(() => Promise.all([a.close(), b.close()]));
  await Promise.all([
    a.readResource({ uri: `${RESOURCE}?tools=progress_op` }),
    b.readResource({ uri: `${RESOURCE}?tools=progress_op` }),
  ]);
  const seen = { A: 0, B: 0 };
  await Promise.all([
    a.callTool({ name: 'progress_op', arguments: { text: 'A' } }, undefined, { onprogress: () => seen.A++ }),
    b.callTool({ name: 'progress_op', arguments: { text: 'B' } }, undefined, { onprogress: () => seen.B++ }),
  ]);
  t.same(seen, { A: 3, B: 3 }, 'each client got exactly its three notifications');
});

/** The JSON-RPC messages of one POST's answer (an SSE stream or one JSON body), in the order they came. */
async function postMessages(
  url: string,
  body: unknown,
  session?: string,
): Promise<{ session?: string; messages: Array<Record<string, unknown>> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const messages = (res.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => JSON.parse(l.slice(5)) as Record<string, unknown>)
    : text
      ? [JSON.parse(text) as Record<string, unknown>]
      : [];
  return { session: res.headers.get('mcp-session-id') ?? session, messages };
}

t.test(
  "a call's progress goes on its own request's stream, before its answer (a client that opens no standalone stream gets it all)",
  async (t) => {
    const server = await listening({});
    t.teardown(server.stop);
    const { session } = await postMessages(server.url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT });
    await postMessages(server.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    await postMessages(
      server.url,
      { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: `${RESOURCE}?tools=progress_op` } },
      session,
    );
    const { messages } = await postMessages(
      server.url,
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'progress_op', arguments: { text: 'raw' }, _meta: { progressToken: 'mine' } },
      },
      session,
    );
    t.same(
      messages.map((m) => m.method ?? `answer ${String(m.id)}`),
      ['notifications/progress', 'notifications/progress', 'notifications/progress', 'answer 3'],
      "three progress notifications, then the answer, on the POST's stream",
    );
    t.same(
      messages.filter((m) => m.method).map((m) => (m.params as { progressToken?: unknown } | undefined)?.progressToken),
      ['mine', 'mine', 'mine'],
      "under the client's own token",
    );
  },
);
