// The exploration's calls do no harm, in-process over stdio and HTTP: a destructive tool is never
// called (destructiveHint wins over every other hint), and a tool that is not read-only is never sent
// arguments it was seen to run with; the report says what was not called, and why.
import t from 'tap';
import { LIVE_CHECKS } from '../checks/index.js';
import { progressiveServer, type Message } from '../fixtures/hostile/raw-server.js';
import { runInProcess, type Script } from './support/check-tester.js';
import { TEST_SEED } from './support/fixtures.js';

t.test('a destructive tool that takes no parameters is never called, fetched or not', async (t) => {
  const tools = [
    {
      name: 'list_items',
      description: 'Lists the items of the store, newest first.',
      annotations: { readOnlyHint: true },
    },
    {
      name: 'wipe_all',
      description: 'Deletes every item of the store, irreversibly.',
      annotations: { destructiveHint: true },
    },
  ];
  const full = [
    {
      name: 'list_items',
      description: 'Lists the items of the store, newest first.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      examples: [{ description: 'All items', input: {} }],
    },
    {
      name: 'wipe_all',
      description: 'Deletes every item of the store, irreversibly.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      examples: [{ description: 'Wipe', input: {} }],
    },
  ];
  const calls: string[] = [];
  const handlers = new Map<number, (m: Message) => unknown>();
  const script: Script = (message, session) => {
    if (!handlers.has(session)) handlers.set(session, progressiveServer(tools, full));
    if (message.method === 'tools/call') calls.push(String((message.params as { name?: unknown }).name));
    return handlers.get(session)!(message) as ReturnType<Script>;
  };
  for (const kind of ['stdio', 'http'] as const) {
    calls.length = 0;
    handlers.clear();
    const report = await runInProcess(LIVE_CHECKS, { script, kind }, { seed: TEST_SEED });
    t.ok(calls.includes('list_items'), `${kind}: the read-only tool was called`);
    t.notOk(calls.includes('wipe_all'), `${kind}: the destructive one never (${calls.length} calls in all)`);
    t.match(
      report.verdict?.notCalled,
      [{ tool: 'wipe_all', why: /destructiveHint/ }],
      `${kind}: the report says it was not called, and why`,
    );
  }
});

/** A progressive-disclosure server of these tools, per in-process session, that records every call it receives. */
function recordingServer(
  tools: Array<{ name: string; description: string; annotations?: Record<string, unknown> }>,
  full: Array<Record<string, unknown>>,
): { script: Script; calls: Array<{ tool: string; args: string; ran: boolean }>; reset(): void } {
  const calls: Array<{ tool: string; args: string; ran: boolean }> = [];
  const handlers = new Map<number, (m: Message) => unknown>();
  const script: Script = (message, session) => {
    if (!handlers.has(session)) handlers.set(session, progressiveServer(tools, full as never));
    const reply = handlers.get(session)!(message) as ReturnType<Script>;
    if (message.method === 'tools/call') {
      const params = message.params as { name?: unknown; arguments?: unknown };
      // It ran unless the server refused it for want of its description.
      calls.push({
        tool: String(params.name),
        args: JSON.stringify(params.arguments ?? {}),
        ran: !JSON.stringify(reply).includes('TOOL_DESCRIPTION_REQUIRED'),
      });
    }
    return reply;
  };
  return {
    script,
    calls,
    reset: () => {
      calls.length = 0;
      handlers.clear();
    },
  };
}

t.test(
  'a tool marked read-only and destructive is never called: destructiveHint wins over every other hint',
  async (t) => {
    const both = { readOnlyHint: true, destructiveHint: true };
    const tools = [
      { name: 'list_tables', description: 'Lists the tables of the database.', annotations: { readOnlyHint: true } },
      { name: 'execute_sql', description: 'Runs an SQL statement against the database.', annotations: both },
    ];
    const full = [
      {
        name: 'list_tables',
        description: 'Lists the tables of the database.',
        inputSchema: { type: 'object', properties: {}, additionalProperties: false },
        examples: [{ description: 'All tables', input: {} }],
      },
      {
        name: 'execute_sql',
        description: 'Runs an SQL statement.',
        annotations: both,
        inputSchema: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] },
        examples: [{ description: 'Drop', input: { sql: 'DROP TABLE orders' } }],
      },
    ];
    const server = recordingServer(tools, full);
    for (const kind of ['stdio', 'http'] as const) {
      server.reset();
      const report = await runInProcess(LIVE_CHECKS, { script: server.script, kind }, { seed: TEST_SEED });
      t.ok(
        server.calls.some((c) => c.tool === 'list_tables'),
        `${kind}: the read-only tool was called`,
      );
      t.same(
        server.calls.filter((c) => c.tool === 'execute_sql'),
        [],
        `${kind}: the one marked both read-only and destructive never (${server.calls.length} calls in all)`,
      );
      t.match(
        report.verdict?.notCalled,
        [{ tool: 'execute_sql', why: /destructiveHint/ }],
        `${kind}: the report says why`,
      );
    }
  },
);

t.test('a tool that is not read-only is never sent arguments it was seen to run with again', async (t) => {
  // The server checks no arguments: the refused arguments the checker builds ({} without 'text') run.
  const tools = [
    { name: 'read_log', description: 'Reads the last lines of the log.', annotations: { readOnlyHint: true } },
    { name: 'append_log', description: 'Appends a line to the log.' },
  ];
  const full = [
    {
      name: 'read_log',
      description: 'Reads the last lines of the log.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      examples: [{ description: 'All', input: {} }],
    },
    {
      name: 'append_log',
      description: 'Appends a line to the log.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      examples: [{ description: 'A line', input: { text: 'hello' } }],
    },
  ];
  const server = recordingServer(tools, full);
  for (const kind of ['stdio', 'http'] as const) {
    server.reset();
    const report = await runInProcess(LIVE_CHECKS, { script: server.script, kind }, { seed: TEST_SEED });
    const appended = server.calls.filter((c) => c.tool === 'append_log' && c.ran);
    const byArgs = new Map<string, number>();
    for (const c of appended) byArgs.set(c.args, (byArgs.get(c.args) ?? 0) + 1);
    t.ok(appended.length >= 1, `${kind}: it ran (${appended.length} times)`);
    t.same(
      [...byArgs].filter(([, n]) => n > 1),
      [],
      `${kind}: it never ran twice with the same arguments (${JSON.stringify([...byArgs])})`,
    );
    t.notOk(
      appended.some((c) => c.args.includes('hello')),
      `${kind}: never with the example of its description`,
    );
    t.match(
      JSON.stringify(report.results),
      /already ran with \{\} in this run/,
      `${kind}: the report says why it was not called again`,
    );
  }
});
