// How a session tells a slow server from a dead one, driven by a scripted wire: the test decides
// when the "process" speaks, lives or dies, never a race against the machine's speed.
import t from 'tap';
import { McpSession } from '../src/transport/session.js';
import type { JsonObject, Wire } from '../src/transport/types.js';

/**
 * A process-like wire: it answers what `reply` says; `onExpiry` runs when a timed-out request asks how long it lived.
 */
class ScriptedProcess implements Wire {
  readonly describe = 'scripted';
  private handler: (m: JsonObject) => void = () => {};
  private closers: Array<(reason: string) => void> = [];
  stderr: string[] = [];
  onExpiry: () => void = () => {};
  constructor(private readonly reply: (m: JsonObject) => JsonObject | undefined) {}
  async send(m: JsonObject): Promise<void> {
    const answer = this.reply(m);
    if (answer) queueMicrotask(() => this.handler(answer));
  }
  onMessage(h: (m: JsonObject) => void): void {
    this.handler = h;
  }
  onGarbage(): void {}
  onClose(h: (reason: string) => void): void {
    this.closers.push(h);
  }
  async close(): Promise<void> {}
  stderrTail(): string[] {
    return this.stderr.slice(-20);
  }
  stderrCount(): number {
    return this.stderr.length;
  }
  alive(): number {
    this.onExpiry();
    return 4200;
  }
  speak(m: JsonObject): void {
    this.handler(m);
  }
  exit(reason: string): void {
    for (const h of this.closers) h(reason);
  }
}

const init = (m: JsonObject) =>
  m.method === 'initialize'
    ? {
        jsonrpc: '2.0',
        id: m.id,
        result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } },
      }
    : undefined;

t.test('a process that exits just after a request timed out is reported as exited, not as slow', async (t) => {
  const wire = new ScriptedProcess(init);
  const session = new McpSession(wire, { label: 's', timeoutMs: 5 });
  await session.initialize();
  wire.stderr.push('fatal: out of memory');
  // The exit comes right as the timer fires (inside the grace the session allows).
  wire.onExpiry = () => setImmediate(() => wire.exit('the server process exited with code 137'));
  const ex = await session.request('tools/list');
  t.equal(ex.noResponse, 'closed');
  t.match(ex.note, /^the server process exited with code 137; it said on stderr: "fatal: out of memory"$/);
});

t.test('a timeout says how long the process had lived and what it wrote on stderr meanwhile', async (t) => {
  const wire = new ScriptedProcess(init);
  const session = new McpSession(wire, { label: 's', timeoutMs: 5 });
  await session.initialize();
  wire.stderr.push('before the request');
  const quiet = await session.request('tools/list');
  t.equal(quiet.noResponse, 'timeout');
  t.equal(
    quiet.note,
    'no response within 5 ms; the server process had been running for 4.2 s and wrote nothing on stderr meanwhile',
  );
  wire.onExpiry = () => wire.stderr.push('waiting for lock', 'still waiting for lock');
  const noisy = await session.request('tools/list');
  t.equal(
    noisy.note,
    'no response within 5 ms; the server process had been running for 4.2 s and wrote 2 lines on stderr meanwhile, the last: "still waiting for lock"',
  );
});

t.test(
  'start-up is not a request: initialize waits the start-up allowance, and the request limit once the server speaks',
  async (t) => {
    // Silent: the start-up allowance, named as such.
    const silent = new McpSession(new ScriptedProcess(() => undefined), {
      label: 's',
      timeoutMs: 1,
      startupTimeoutMs: 20,
    });
    await t.rejects(
      silent.initialize(),
      /did not answer initialize within 20 ms \(--startup-timeout\); it wrote nothing on stderr meanwhile/,
    );
    // It speaks (a reply under a wrong id), so the start is over: the request limit applies from then on.
    const wire = new ScriptedProcess(() => undefined);
    const speaking = new McpSession(wire, { label: 's', timeoutMs: 1, startupTimeoutMs: 600_000 });
    const pending = speaking.initialize();
    wire.speak({ jsonrpc: '2.0', id: 'x-1', result: {} });
    await t.rejects(pending, /did not answer initialize within \d+ ms; .*answered under an id that no request had/);
    t.equal(
      speaking.exchanges[0]?.noResponse,
      'timeout',
      'it ended long before the start-up allowance (a hang would exceed the test timeout)',
    );
  },
);
