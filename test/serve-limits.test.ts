// `serve`'s bounds against a client that sends too much (issue 41), in front of the recording upstream
// (test/support/recording-upstream): a line over --max-message is answered with an error and dropped,
// sessions past --max-sessions are refused, and a long line costs time in proportion to its length.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { INIT, listening, StdioServe } from './support/serve-recording.js';

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

/** The CPU time (user + system, ms) a process has used, from /proc. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

// CPU time is counted in 10 ms ticks: sizes large enough for many ticks, and a bound halfway (in ratio) between
// a line (4 times) and a square (16 times), so that neither a tick nor a collection decides it.
t.test('a long line costs time in proportion to its length: 32 MB takes at most 8 times the CPU of 8 MB', async (t) => {
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
  const eight = await least(8);
  const thirtyTwo = await least(32);
  t.ok(
    thirtyTwo <= 8 * Math.max(eight, 20),
    `32 MB: ${thirtyTwo} ms of CPU; 8 MB: ${eight} ms (a line would be 4 times, a square 16 times)`,
  );
});
