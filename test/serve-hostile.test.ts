// `serve` against hostile and merely buggy clients (issue 41), over stdio and `--listen`, with an
// upstream that records every call it receives (test/support/recording-upstream). Nothing passes the
// gate: no call unfetched, malformed or under a near name reaches the upstream; nothing a client sends
// crashes or corrupts it; off loopback, a foreign Origin or Host is refused.
import t from 'tap';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { CLI } from './helpers.js';
import { MODERN_ERA, modernHeaders, withEnvelope } from '../src/transport/era.js';
import { INIT, listening, logFile, RESOURCE, StdioServe, UPSTREAM } from './support/serve-recording.js';

t.test(
  'past the gate: nothing unfetched, nothing malformed and no near name reaches the upstream (stdio)',
  async (t) => {
    const log = logFile();
    const serve = new StdioServe({ RECORD_LOG: log.path, LOOSE_NAMES: '1' });
    t.teardown(() => serve.stop());
    await serve.open();
    serve.send([{ jsonrpc: '2.0', id: 'batch', method: 'tools/call', params: { name: 'secret_op', arguments: {} } }]);
    t.match(
      await serve.next((m) => m.id === null),
      { error: { code: -32600, message: /batches are not accepted/ } },
      'a batch is refused whole',
    );
    serve.send({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'secret_op', arguments: {} } });
    serve.send({ jsonrpc: '2.0', id: 'm1', method: ['tools/call'], params: { name: 'secret_op' } });
    t.match(await serve.answerTo('m1'), { error: { code: -32600 } }, 'a method that is no string: -32600');
    serve.send({ jsonrpc: '2.0', id: 'm2', method: 42 });
    t.match(await serve.answerTo('m2'), { error: { code: -32600 } }, 'a method 42: -32600');
    serve.send({ jsonrpc: '2.0', id: 'p1', method: 'tools/call', params: ['secret_op'] });
    t.match(await serve.answerTo('p1'), { error: { code: -32602 } }, 'params as an array: -32602');
    const near = ['SECRET_OP', ' secret_op', 'secret-op', 's\u0435cret_op', 'secret_op\u0000'];
    for (const [k, name] of near.entries()) {
      serve.send({ jsonrpc: '2.0', id: `n${k}`, method: 'tools/call', params: { name, arguments: {} } });
      t.match(
        await serve.answerTo(`n${k}`),
        { error: { code: -32602, message: /Unknown tool/ } },
        `${JSON.stringify(name)}: an unknown tool, answered by serve`,
      );
    }
    serve.send({ jsonrpc: '2.0', id: 'ok', method: 'tools/call', params: { name: 'secret_op', arguments: {} } });
    t.match(
      JSON.stringify(await serve.answerTo('ok')),
      /TOOL_DESCRIPTION_REQUIRED/,
      'the exact name, unfetched: refused',
    );
    t.same(
      log.entries().filter((e) => 'call' in e),
      [],
      'the upstream received no call at all',
    );
  },
);

t.test('past the gate over HTTP: a tools/call without an id is a notification, and is not forwarded', async (t) => {
  const log = logFile();
  const server = await listening({ RECORD_LOG: log.path });
  t.teardown(server.stop);
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await fetch(server.url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT }),
  });
  const sid = init.headers.get('mcp-session-id')!;
  await init.text();
  const post = async (body: unknown) => {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': sid },
      body: JSON.stringify(body),
    });
    await res.text();
    return res.status;
  };
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await post({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'secret_op', arguments: {} } });
  t.equal(
    await post([{ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'secret_op', arguments: {} } }]),
    400,
    'a batch in a session: 400',
  );
  t.equal(await post({ jsonrpc: '2.0', id: 10, method: 'ping' }), 200, 'the session still works');
  t.same(
    log.entries().filter((e) => 'call' in e),
    [],
    'the upstream received no call',
  );
});

t.test(
  'no crash, no corruption: a null line is answered, and characters split across reads arrive whole both ways',
  async (t) => {
    const log = logFile();
    const serve = new StdioServe({ RECORD_LOG: log.path, SPLIT_WRITES: '1' });
    t.teardown(() => serve.stop());
    await serve.open();
    serve.write('null\n');
    t.match(await serve.next((m) => m.id === null), { error: { code: -32600 } }, 'null is answered with -32600');
    serve.write('{not json\n');
    t.match(
      await serve.next((m) => m.id === null && (m.error as { code?: number })?.code === -32700),
      { error: { code: -32700 } },
      'a line that is not JSON: -32700',
    );
    serve.send({ jsonrpc: '2.0', id: 'r', method: 'resources/read', params: { uri: `${RESOURCE}?tools=echo_op` } });
    await serve.answerTo('r');
    const text = 'héllo € 😀 漢字';
    const line = Buffer.from(
      `${JSON.stringify({ jsonrpc: '2.0', id: 'e', method: 'tools/call', params: { name: 'echo_op', arguments: { text } } })}\n`,
    );
    const cut = line.indexOf(Buffer.from('€')) + 1;
    serve.write(line.subarray(0, cut));
    await new Promise((resolve) => setTimeout(resolve, 50));
    serve.write(line.subarray(cut));
    const answer = await serve.answerTo('e');
    t.equal(
      (answer.result as { content: Array<{ text: string }> }).content[0].text,
      text,
      'the answer, written by the upstream in two pieces, arrives whole',
    );
    t.equal(
      log.entries().find((e) => e.call === 'echo_op')?.args &&
        (log.entries().find((e) => e.call === 'echo_op')!.args as { text: string }).text,
      text,
      'the request, written in two pieces, reached the upstream whole',
    );
  },
);

t.test('2026-07-28 over HTTP: malformed bodies are refused, a disconnect cancels the request upstream', async (t) => {
  const log = logFile();
  const server = await listening({ RECORD_LOG: log.path });
  t.teardown(server.stop);
  const modern = (body: unknown, signal?: AbortSignal) =>
    fetch(server.url, {
      method: 'POST',
      signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'mcp-protocol-version': MODERN_ERA,
        ...(typeof body === 'object' && body !== null && !Array.isArray(body)
          ? modernHeaders(body as Record<string, unknown>)
          : {}),
      },
      body: JSON.stringify(body),
    });
  for (const [what, body] of [
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'ping' }]],
    ['null', null],
    ['42', 42],
    ['[]', []],
    ['an answer', { jsonrpc: '2.0', id: 3, result: {} }],
  ] as const) {
    const res = await modern(body);
    t.equal(res.status, 400, `${what}: 400`);
    t.match(await res.json(), { error: { code: -32600 } }, `${what}: -32600`);
  }
  const call = {
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: withEnvelope({ name: 'hang_op', arguments: {} }, { name: 'c', version: '1' }),
  };
  const abort = new AbortController();
  const pending = modern(call, abort.signal).catch(() => undefined);
  // Once the upstream has the call, the client goes away.
  for (let i = 0; i < 300 && !log.entries().some((e) => e.call === 'hang_op'); i++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  abort.abort();
  await pending;
  for (let i = 0; i < 300 && !log.entries().some((e) => 'cancelled' in e); i++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  t.ok(
    log.entries().some((e) => 'cancelled' in e),
    'the upstream was told the call is cancelled',
  );
});

t.test(
  'off loopback: a foreign Origin or Host is refused on 0.0.0.0 too, and serve says what it accepts',
  async (t) => {
    const child = spawn(
      process.execPath,
      [CLI, 'serve', '--listen', '0', '--host', '0.0.0.0', '--', process.execPath, UPSTREAM],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    t.teardown(() => {
      child.kill();
    });
    let said = '';
    const port = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        const m = /listening on http:\/\/0\.0\.0\.0:(\d+)\/mcp[\s\S]*accepting /.exec(said);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${said}`)));
    });
    t.match(
      said,
      /accepting Host: this machine's names and addresses, with port \d+ or none; Origin: none/,
      'it says what it accepts',
    );
    const post = (headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${port}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT }),
      });
    t.equal((await post({ origin: 'http://evil.example.com' })).status, 403, 'a foreign Origin: 403');
    // fetch cannot set Host: node:http can.
    const foreignHost = await new Promise<number | undefined>((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: Number(port),
          path: '/mcp',
          method: 'POST',
          headers: {
            host: `evil.example.com:${port}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on('error', () => resolve(undefined));
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT }));
    });
    t.equal(foreignHost, 403, 'a foreign Host: 403');
    t.equal((await post({})).status, 200, "the machine's own address, no Origin: served");
  },
);
