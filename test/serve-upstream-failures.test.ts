// `serve` in front of an upstream that fails (issue 41): one that never answers, is stopped (SIGSTOP),
// never answers initialize, exits, does not exit when its stdin closes, or does not exist. Every client
// gets an error that names the upstream, in its own era, and none waits for ever; every mistake of the
// user is one line.
import t from 'tap';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { CLI, runCli } from './helpers.js';
import { MODERN_ERA, modernHeaders, withEnvelope } from '../src/transport/era.js';
import { INIT, listening, logFile, RESOURCE, StdioServe } from './support/serve-recording.js';

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

/** The upstream process serve started (its only child). */
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

t.test(
  "serve --listen: a client over the network is told the upstream exited, never the upstream's command line; serve's stderr names it",
  async (t) => {
    const server = await listening({});
    t.teardown(server.stop);
    const post = async (body: object, session?: string) => {
      const res = await fetch(server.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': INIT.protocolVersion } : {}),
        },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
      return {
        session: res.headers.get('mcp-session-id') ?? undefined,
        body: JSON.parse(json) as { error?: { message?: unknown } },
      };
    };
    const { session } = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT });
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    await post(
      { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: `${RESOURCE}?tools=exit_op` } },
      session,
    );
    const call = await post(
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'exit_op', arguments: {} } },
      session,
    );
    const message = String(call.body.error?.message);
    t.match(message, /^The upstream server exited with code 9/, message);
    t.notMatch(message, /recording-upstream|dist\/test|node /, 'no command line, no local path');
    // Serve writes it as the upstream ends, beside the answer; waited for (10 s: what a hang would exceed).
    const named = /the upstream server \(.*recording-upstream\.js\) exited with code 9/;
    for (let waited = 0; !named.test(server.stderr?.() ?? '') && waited < 10_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    t.match(server.stderr?.(), named, "serve's stderr names it");
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
