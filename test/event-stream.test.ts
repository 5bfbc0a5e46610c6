import t from 'tap';
import { readEventStream } from '../src/transport/event-stream.js';

function stream(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
}

async function events(body: ReadableStream<Uint8Array>, max = 1024): Promise<string[]> {
  const seen: string[] = [];
  await readEventStream(body, max, (e) => {
    seen.push(e.data);
  });
  return seen;
}

t.test('every line-end form, comments and multi-line data', async (t) => {
  t.same(
    await events(stream('data: a\n\n', 'data: b\r\n\r\n', 'data: c\r\rdata: d\n\n')),
    ['a', 'b', 'c', 'd'],
    'LF, CRLF and CR-only',
  );
  t.same(
    await events(stream(': a comment\n', 'event: message\ndata: {"x":\ndata: 1}\n\n')),
    ['{"x":\n1}'],
    'a comment skipped, data lines joined',
  );
  t.same(await events(stream('da', 'ta: split', ' across chunks\n', '\n')), ['split across chunks'], 'split anywhere');
});

t.test('the size cap holds per event, not per stream', async (t) => {
  const many = Array.from({ length: 50 }, (_, i) => `data: ${'x'.repeat(30)}${i}\n\n`);
  t.equal((await events(stream(...many), 100)).length, 50, '50 small events pass a 100-byte cap');
  await t.rejects(
    events(stream(`data: ${'x'.repeat(200)}`), 100),
    { name: 'EventTooLarge' },
    'one endless event is cut',
  );
  await t.rejects(
    events(stream(...Array.from({ length: 20 }, () => `data: ${'y'.repeat(20)}\n`)), 100),
    { name: 'EventTooLarge' },
    'an event never closed by a blank line is cut',
  );
});

t.test('a consumer that has its answer stops the stream', async (t) => {
  const seen: string[] = [];
  await readEventStream(stream('data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n'), 100, (e) => {
    seen.push(e.data);
    return e.data === '2';
  });
  t.same(seen, ['1', '2']);
});
