// `serve` against any client (issue 41): hostile and merely buggy clients, over stdio and
// `--listen`, with an upstream that records every call it receives (test/support/recording-upstream).
// One client never sees, answers or steers another's traffic; nothing passes the gate; nothing
// crashes it; each client is answered in its era; every mistake of the user is one line.
import t from 'tap';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI, ROOT, runCli, serveListening, tempDir, type RunningServer } from './helpers.js';
import { MODERN_ERA, modernHeaders, withEnvelope } from '../src/transport/era.js';

const UPSTREAM = join(ROOT, 'dist', 'test', 'support', 'recording-upstream.js');
const RESOURCE = 'resource:///tool_descriptions';
const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };

/** A recording upstream's log: what it was asked to do. */
function logFile(): { path: string; entries(): Array<Record<string, unknown>> } {
  const path = join(tempDir(), 'upstream.log');
  return {
    path,
    entries: () =>
      existsSync(path)
        ? readFileSync(path, 'utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Record<string, unknown>)
        : [],
  };
}

/** serve over stdio in front of the recording upstream, spoken to line by line. */
class StdioServe {
  readonly child: ChildProcessWithoutNullStreams;
  private buffer = '';
  private readonly received: Array<Record<string, unknown>> = [];
  private readonly waiting: Array<() => void> = [];
  stderr = '';

  constructor(env: Record<string, string>, args: string[] = []) {
    this.child = spawn(process.execPath, [CLI, 'serve', ...args, '--', process.execPath, UPSTREAM], {
      env: { ...process.env, ...env },
    });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      let newline: number;
      while ((newline = this.buffer.indexOf('\n')) >= 0) {
        this.received.push(JSON.parse(this.buffer.slice(0, newline)) as Record<string, unknown>);
        this.buffer = this.buffer.slice(newline + 1);
        for (const w of this.waiting.splice(0)) w();
      }
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
  }

  write(text: string | Buffer): void {
    this.child.stdin.write(text);
  }

  send(message: unknown): void {
    this.write(`${JSON.stringify(message)}\n`);
  }

  /** The first message received (from now on or before) that `match` accepts; a hang guard, not a timing test. */
  async next(match: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const found = this.received.find(match);
      if (found) {
        this.received.splice(this.received.indexOf(found), 1);
        return found;
      }
      if (Date.now() > deadline) throw new Error(`no such message; got ${JSON.stringify(this.received).slice(0, 400)}`);
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  answerTo(id: unknown): Promise<Record<string, unknown>> {
    return this.next((m) => m.id === id && m.method === undefined);
  }

  async open(): Promise<void> {
    this.send({ jsonrpc: '2.0', id: 'i', method: 'initialize', params: INIT });
    await this.answerTo('i');
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.kill();
    });
  }
}

async function sdkClient(url: string, name: string, onElicit?: () => Record<string, unknown>): Promise<Client> {
  const client = new Client({ name, version: '1' }, { capabilities: { elicitation: {} } });
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, async () => onElicit() as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function listening(env: Record<string, string>, args: string[] = []): Promise<RunningServer> {
  return serveListening([...args, '--', process.execPath, UPSTREAM], env);
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

t.test('bounded: a line over --max-message is answered with an error and dropped, and serve goes on', async (t) => {
  const serve = new StdioServe({}, ['--max-message', '1']);
  t.teardown(() => serve.stop());
  await serve.open();
  serve.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 'big', method: 'tools/call', params: { name: 'echo_op', arguments: { text: 'x'.repeat(3 * 1024 * 1024) } } })}\n`,
  );
  // Its id is read from its first bytes: the client learns which request it was.
  t.match(await serve.next((m) => m.id === 'big'), {
    error: { code: -32600, message: /over the limit of 1048576 bytes \(serve --max-message 1 MB\)/ },
  });
  serve.send({ jsonrpc: '2.0', id: 'after', method: 'ping' });
  t.same((await serve.answerTo('after')).result, {}, 'the next request is answered');
});

t.test('bounded: sessions past --max-sessions are refused while every one is in use', async (t) => {
  const server = await listening({}, ['--max-sessions', '3']);
  t.teardown(server.stop);
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT }),
    });
    statuses.push(res.status);
    await res.text();
  }
  t.same(statuses, [200, 200, 200, 503, 503], 'three sessions kept, the others told to come back');
});

t.test('no answer: a request the upstream never answers gets an error, and the upstream a cancellation', async (t) => {
  const log = logFile();
  const serve = new StdioServe({ RECORD_LOG: log.path }, ['--request-timeout', '1']);
  t.teardown(() => serve.stop());
  await serve.open();
  serve.send({ jsonrpc: '2.0', id: 'r', method: 'resources/read', params: { uri: `${RESOURCE}?tools=hang_op` } });
  await serve.answerTo('r');
  serve.send({ jsonrpc: '2.0', id: 'h', method: 'tools/call', params: { name: 'hang_op', arguments: {} } });
  t.match(await serve.answerTo('h'), { error: { code: -32001, message: /did not answer tools\/call within 1 s/ } });
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.ok(
    log.entries().some((e) => 'cancelled' in e),
    'the upstream was told the request is cancelled',
  );
});

/** The CPU time (user + system, ms) a process has used, from /proc. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The upstream process serve started (its only child). */
/** A process's state letter from /proc (T: stopped), or 'gone'. */
function processState(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ')[0];
  } catch {
    return 'gone';
  }
}

function upstreamPid(serve: StdioServe): number {
  const children = readFileSync(`/proc/${serve.child.pid}/task/${serve.child.pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  if (children.length !== 1) throw new Error(`serve has ${children.length} children`);
  return children[0];
}

t.test(
  'an upstream stopped (SIGSTOP): every forwarded request is answered with an error naming it within --request-timeout, and the upstream gets a cancellation',
  async (t) => {
    const serve = new StdioServe({}, ['--request-timeout', '1']);
    t.teardown(() => serve.stop());
    await serve.open();
    serve.send({ jsonrpc: '2.0', id: 'r', method: 'resources/read', params: { uri: `${RESOURCE}?tools=echo_op` } });
    await serve.answerTo('r');
    const upstream = upstreamPid(serve);
    process.kill(upstream, 'SIGSTOP');
    t.teardown(() => {
      try {
        process.kill(upstream, 'SIGCONT');
      } catch {
        /* gone */
      }
    });
    serve.send({
      jsonrpc: '2.0',
      id: 'c',
      method: 'tools/call',
      params: { name: 'echo_op', arguments: { text: 'x' } },
    });
    serve.send({ jsonrpc: '2.0', id: 'p', method: 'ping' });
    serve.send({ jsonrpc: '2.0', id: 'l', method: 'resources/list' });
    for (const id of ['c', 'p', 'l']) {
      const answer = await serve.answerTo(id);
      // Seen once in CI (1 in ~12 runs): 'l' answered with a result. What the upstream's state was then
      // says whether it ran again (something sent it SIGCONT) or serve answered by itself.
      t.match(
        answer,
        {
          error: {
            code: -32001,
            message:
              /Request timed out: the upstream server \(.*recording-upstream\.js\) did not answer .* within 1 s \(serve --request-timeout\)/,
          },
        },
        `${id}: an error that names the upstream`,
        { answer, upstreamState: processState(upstream), serveStderr: serve.stderr.slice(-2000) },
      );
    }
  },
);

t.test(
  'an upstream that never answers initialize: the first client gets an error, those after it too (none waits for ever), and the next initialize is tried again',
  async (t) => {
    const server = await listening({}, ['--request-timeout', '1']);
    t.teardown(server.stop);
    const pids = readFileSync(`/proc/${server.pid!}/task/${server.pid!}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    t.equal(pids.length, 1, 'serve started its upstream');
    process.kill(pids[0], 'SIGSTOP');
    let stopped = true;
    t.teardown(() => {
      if (stopped) process.kill(pids[0], 'SIGCONT');
    });
    const initialize = () =>
      fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT }),
      }).then((r) => r.text());
    const [first, second] = await Promise.all([initialize(), initialize()]);
    t.match(first, /did not answer initialize within 1 s/, 'the first client: the timeout');
    t.match(
      second,
      /did not answer initialize within 1 s/,
      'a client that waited for the same initialize: the same error, not a hang',
    );
    process.kill(pids[0], 'SIGCONT');
    stopped = false;
    t.match(
      await initialize(),
      /"protocolVersion"/,
      'once the upstream answers again, initialize goes upstream again and works',
    );
  },
);

t.test('a long line costs time in proportion to its length: 16 MB takes at most 4 times the CPU of 4 MB', async (t) => {
  const serve = new StdioServe({}, ['--max-message', '64']);
  t.teardown(() => serve.stop());
  await serve.open();
  const cost = async (mb: number, id: string) => {
    const before = cpuMs(serve.child.pid!);
    serve.write(
      `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo_op', arguments: { text: 'x'.repeat(mb * 1024 * 1024) } } })}\n`,
    );
    await serve.answerTo(id);
    return cpuMs(serve.child.pid!) - before;
  };
  await cost(1, 'warm');
  // The least of three each: what a size costs, without the collections that happen to fall into one request.
  const least = async (mb: number) =>
    Math.min(await cost(mb, `${mb}a`), await cost(mb, `${mb}b`), await cost(mb, `${mb}c`));
  const four = await least(4);
  const sixteen = await least(16);
  t.ok(sixteen <= 4 * Math.max(four, 10), `16 MB: ${sixteen} ms of CPU; 4 MB: ${four} ms (a square would be 16 times)`);
});

t.test(
  'the upstream exits: every request in flight gets an error naming the exit code, then serve exits with it',
  async (t) => {
    const serve = new StdioServe({});
    await serve.open();
    serve.send({
      jsonrpc: '2.0',
      id: 'r',
      method: 'resources/read',
      params: { uri: `${RESOURCE}?tools=hang_op,exit_op` },
    });
    await serve.answerTo('r');
    serve.send({ jsonrpc: '2.0', id: 'h', method: 'tools/call', params: { name: 'hang_op', arguments: {} } });
    serve.send({ jsonrpc: '2.0', id: 'x', method: 'tools/call', params: { name: 'exit_op', arguments: {} } });
    const exited = new Promise<number | null>((resolve) => serve.child.once('exit', resolve));
    t.match(await serve.answerTo('h'), { error: { message: /exited with code 9 before answering tools\/call/ } });
    t.match(await serve.answerTo('x'), { error: { message: /exited with code 9/ } });
    t.equal(await exited, 9, "serve exits with the upstream's code");
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

t.test(
  'each client in its era: an unknown resource is -32002 for 2025-11-25 and -32602 for 2026-07-28, whatever the upstream said',
  async (t) => {
    const serve = new StdioServe({});
    t.teardown(() => serve.stop());
    await serve.open();
    serve.send({ jsonrpc: '2.0', id: 'u', method: 'resources/read', params: { uri: 'file:///nope.txt' } });
    t.match(await serve.answerTo('u'), { error: { code: -32002 } }, 'a 2025-11-25 client: -32002');
    const server = await listening({});
    t.teardown(server.stop);
    const read = {
      jsonrpc: '2.0',
      id: 5,
      method: 'resources/read',
      params: withEnvelope({ uri: 'file:///nope.txt' }, { name: 'c', version: '1' }),
    };
    const res = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'mcp-protocol-version': MODERN_ERA,
        ...modernHeaders(read),
      },
      body: JSON.stringify(read),
    });
    t.match(await res.json(), { error: { code: -32602 } }, 'a 2026-07-28 client: -32602');
  },
);

t.test('first contact: an upstream command that does not exist is one line and exit 3', async (t) => {
  const run = await runCli(['serve', '--', 'no-such-server-for-mcp-pd-check']);
  t.equal(run.code, 3);
  t.match(
    run.stderr,
    /^mcp-pd-check: cannot start the upstream server 'no-such-server-for-mcp-pd-check': command not found/,
  );
  t.notMatch(run.stderr, /internal error|at .*\.js:\d+|Please report/, 'no stack trace');
  t.equal(run.stderr.trim().split('\n').length, 1, 'one line');
});

t.test(
  "an upstream that does not exit when its stdin closes: serve ends it after the grace, and that end is serve's own (exit 0, as the client asked)",
  async (t) => {
    // A server slow to start on a busy machine looks the same: it has not read its stdin's end yet.
    const child = spawn(
      process.execPath,
      [
        CLI,
        'serve',
        '--',
        process.execPath,
        '-e',
        "process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1e6);",
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let said = '';
    child.stderr.on('data', (d: Buffer) => (said += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    t.equal(code, 0, `the client's end of input ends serve with 0 (${said.trim() || 'nothing said'})`);
  },
);
