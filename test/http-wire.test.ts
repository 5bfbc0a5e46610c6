// The checker's Streamable HTTP wire (src/transport/http.ts) against a raw node:http server: an
// answer on an event stream leaves its connection for the next request, and a stream the server
// keeps open after the answer neither holds the answer back nor stays open for good.
import t from 'tap';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpWire } from '../src/transport/http.js';
import type { JsonObject } from '../src/transport/types.js';

/** A server that answers every POST on an event stream; `afterAnswer` decides what follows the answer. */
async function sseServer(
  afterAnswer: (res: ServerResponse) => void,
): Promise<{ url: URL; connections: () => number; closedStreams: () => number; stop: () => Promise<void> }> {
  let connections = 0;
  let closedStreams = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const message = JSON.parse(body) as { id?: unknown };
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'one' });
      res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} })}\n\n`);
      res.on('close', () => closedStreams++);
      afterAnswer(res);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    connections: () => connections,
    closedStreams: () => closedStreams,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function wireTo(url: URL): { wire: HttpWire; answers: JsonObject[] } {
  const wire = new HttpWire(url, {});
  const answers: JsonObject[] = [];
  wire.onMessage((m) => answers.push(m));
  return { wire, answers };
}

t.test('requests answered on event streams that end share one connection', async (t) => {
  const server = await sseServer((res) => res.end());
  t.teardown(server.stop);
  const { wire, answers } = wireTo(server.url);
  t.teardown(() => wire.close({ terminate: false }));
  for (let id = 1; id <= 5; id++) await wire.send({ jsonrpc: '2.0', id, method: 'ping' });
  t.same(
    answers.map((a) => a.id),
    [1, 2, 3, 4, 5],
    'every request answered',
  );
  t.equal(
    server.connections(),
    1,
    'one connection for the five (a stream cut after its answer takes its connection with it)',
  );
});

t.test('a stream kept open after the answer: the answer is delivered at once, and the stream is cut', async (t) => {
  let open: ServerResponse | undefined;
  const server = await sseServer((res) => {
    open = res;
  });
  t.teardown(server.stop);
  const { wire, answers } = wireTo(server.url);
  t.teardown(() => wire.close({ terminate: false }));
  const sending = wire.send({ jsonrpc: '2.0', id: 7, method: 'ping' });
  // The answer does not wait for the stream's end (a bound only a hang would exceed).
  for (let k = 0; k < 600 && !answers.length; k++) await new Promise((r) => setTimeout(r, 50));
  t.same(
    answers.map((a) => a.id),
    [7],
    'the answer was delivered',
  );
  t.equal(open?.writableEnded, false, 'the server never ends that stream');
  await sending;
  for (let k = 0; k < 600 && !server.closedStreams(); k++) await new Promise((r) => setTimeout(r, 50));
  t.equal(server.closedStreams(), 1, 'the checker cut the stream the server kept open');
});

t.test('a message that follows the answer on the same stream is still delivered', async (t) => {
  const server = await sseServer((res) => {
    res.write(
      `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'late' } })}\n\n`,
    );
    res.end();
  });
  t.teardown(server.stop);
  const { wire, answers } = wireTo(server.url);
  t.teardown(() => wire.close({ terminate: false }));
  await wire.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
  t.same(
    answers.map((a) => a.id ?? a.method),
    [1, 'notifications/message'],
    'the answer, then the notification after it',
  );
});
