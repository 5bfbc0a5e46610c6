// MCP's stdio shutdown: the client closes the server's input first, waits for it to exit, then
// sends SIGTERM (then SIGKILL). A server that does not end at EOF gets SIGTERM only after all it was
// sent was written and its input closed, so it can read everything (the cancellation of a call,
// last). The server here records what it could read when SIGTERM came. (How long the checker waits for an exit is a
// time:
// not asserted, as a busy machine may take longer.)
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverTarget } from '../src/library/server-target.js';
import { tempDir } from './helpers.js';

/**
 * A stdio server that answers initialize, goes on after EOF and, on SIGTERM, writes whether its stdin had reached EOF.
 */
const SERVER = `
const { readSync, writeFileSync } = require('node:fs');
const out = process.env.SHUTDOWN_LOG;
let eof = false;
let pending = '';
process.stdin.on('data', (chunk) => {
  const lines = (pending + chunk).split('\\n');
  pending = lines.pop();
  for (const line of lines.filter(Boolean)) {
    const m = JSON.parse(line);
    if (m.method === 'initialize') process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'shutdown', version: '1' } } }) + '\\n');
  }
});
process.stdin.on('end', () => {
  eof = true;
  writeFileSync(out, 'eof\\n', { flag: 'a' });
  setInterval(() => {}, 1000);
});
process.on('SIGTERM', () => {
  // Whether everything was sent by now: the stream ended, or reading what is left finds its end
  // (not "nothing more yet", which a read of a pipe still open says).
  let closed = eof;
  const buffer = Buffer.alloc(65536);
  while (!closed) {
    let n;
    try { n = readSync(0, buffer); } catch { break; }
    if (n === 0) closed = true;
  }
  writeFileSync(out, 'sigterm input ' + (closed ? 'closed' : 'open') + '\\n', { flag: 'a' });
  process.exit(0);
});
`;

t.test(
  'a server that goes on after EOF gets SIGTERM only once all it was sent is written and its input closed',
  async (t) => {
    const dir = tempDir();
    const script = join(dir, 'server.cjs');
    const log = join(dir, 'shutdown.log');
    writeFileSync(script, SERVER);
    writeFileSync(log, '');
    const { target } = serverTarget({
      command: [process.execPath, script],
      env: { SHUTDOWN_LOG: log },
      timeoutMs: 60_000,
    });
    const session = await target.open('s0', { fresh: true });
    t.ok(session.initializeResult, 'the session opened');
    // A large request still being written when the session closes: it goes out whole before the end.
    void session.request('ping', { pad: 'x'.repeat(4 * 1024 * 1024) });
    await session.close();
    await target.dispose();
    const lines = readFileSync(log, 'utf8').trim().split('\n').filter(Boolean);
    // It read the end before the signal came, or could read up to it when the signal came.
    t.same(
      lines.filter((l) => l.startsWith('sigterm')),
      ['sigterm input closed'],
      `SIGTERM came once all was written and the input closed (${lines.join('; ')})`,
    );
  },
);
