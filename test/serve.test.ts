// `serve`: progressive disclosure in front of servers that do not have it — the checker says yes
// to the proxy, and the upstream's tools answer through it as they do without it, once fetched.
import { isToolForm } from '../src/protocol/tool-form.js';
import t from 'tap';
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CheckReport } from '../src/generated/report.js';
import { Hub } from '../src/serve/hub.js';
import { CLI, ROOT, runCli, serveListening, tempDir } from './helpers.js';

const MODULES = join(ROOT, 'node_modules', '@modelcontextprotocol');
const FILESYSTEM = join(MODULES, 'server-filesystem', 'dist', 'index.js');
const MEMORY = join(MODULES, 'server-memory', 'dist', 'index.js');

function sandbox(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'hello.txt'), 'hello through the proxy\n');
  return dir;
}

t.test('the checker says yes to serve in front of server-filesystem over stdio, exploration included', async (t) => {
  const run = await runCli([
    '--format',
    'json',
    '--',
    process.execPath,
    CLI,
    'serve',
    '--',
    'node',
    FILESYSTEM,
    sandbox(),
  ]);
  const report = JSON.parse(run.stdout) as CheckReport;
  t.equal(report.verdict?.implements, 'yes', report.verdict?.summary ?? 'no verdict');
  t.ok(report.exploration && !report.exploration.skipped && report.exploration.requests > 0, 'the exploration ran');
  t.ok(
    (report.verdict?.tokens?.full ?? 0) > (report.verdict?.tokens?.listed ?? 0),
    'the minimal list costs less than the full descriptions',
  );
});

t.test(
  'the checker says yes to serve --listen in front of server-filesystem; a foreign Host or Origin is refused',
  async (t) => {
    const server = await serveListening(['--', 'node', FILESYSTEM, sandbox()], {
      MEMORY_FILE_PATH: join(tempDir(), 'memory.jsonl'),
    });
    t.teardown(server.stop);
    const run = await runCli(['--format', 'json', '--url', server.url]);
    const report = JSON.parse(run.stdout) as CheckReport;
    t.equal(report.verdict?.implements, 'yes', report.verdict?.summary ?? 'no verdict');
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const evil = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        origin: 'http://evil.example.com',
      },
      body,
    });
    t.equal(evil.status, 403, 'a foreign Origin gets 403 (DNS rebinding)');
  },
);

t.test('the checker says yes to serve --listen in front of server-memory, in both eras', async (t) => {
  const server = await serveListening(['--', 'node', MEMORY], { MEMORY_FILE_PATH: join(tempDir(), 'memory.jsonl') });
  t.teardown(server.stop);
  const run = await runCli(['--format', 'json', '--url', server.url]);
  const report = JSON.parse(run.stdout) as CheckReport;
  t.equal(report.verdict?.implements, 'yes', report.verdict?.summary ?? run.stderr);
  t.same(
    report.eras?.filter((e) => e.checked).map((e) => e.era),
    ['2025-11-25', '2026-07-28'],
    'both eras were checked',
  );
});

t.test('through the proxy, a tool is refused until fetched, then answers as it does without the proxy', async (t) => {
  const dir = sandbox();
  const direct = new Client({ name: 'direct', version: '1' });
  await direct.connect(new StdioClientTransport({ command: 'node', args: [FILESYSTEM, dir], stderr: 'ignore' }));
  t.teardown(() => direct.close());
  const proxied = new Client({ name: 'proxied', version: '1' });
  await proxied.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--', 'node', FILESYSTEM, dir],
      stderr: 'ignore',
    }),
  );
  t.teardown(() => proxied.close());
  const args = { name: 'read_text_file', arguments: { path: join(dir, 'hello.txt') } };
  const refused = await proxied.callTool(args);
  t.ok(
    refused.isError && JSON.stringify(refused.content).includes('TOOL_DESCRIPTION_REQUIRED'),
    'refused before its description was fetched',
  );
  const read = await proxied.readResource({ uri: 'resource:///tool_descriptions?tools=read_text_file' });
  const described = JSON.parse((read.contents[0] as { text: string }).text) as Record<
    string,
    { inputSchema?: unknown }
  >;
  t.ok(described.read_text_file?.inputSchema, 'the full description carries the input schema');
  t.same(
    await proxied.callTool(args),
    await direct.callTool(args),
    'once fetched, the same answer as without the proxy',
  );
  const listed = await proxied.listTools();
  t.ok(
    listed.tools.every((tool) => !('properties' in (tool.inputSchema ?? {})) || isToolForm(tool)),
    'tools/list through the proxy is minimal (but for the tool form of the resource)',
  );
});

t.test(
  'init, then serve --descriptions uses the reviewed folder; a description of a tool the upstream does not list is a one-line error',
  async (t) => {
    const dir = sandbox();
    const out = tempDir();
    const init = await runCli(['init', '--out', out, '--', 'node', FILESYSTEM, dir]);
    t.equal(init.code, 0, init.stderr);
    const file = join(out, 'tool_descriptions', 'read_text_file.json');
    const reviewed = { ...JSON.parse(readFileSync(file, 'utf8')), description: 'Reviewed: reads a text file whole.' };
    writeFileSync(file, JSON.stringify(reviewed));
    const client = new Client({ name: 't', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'serve', '--descriptions', out, '--', 'node', FILESYSTEM, dir],
        stderr: 'ignore',
      }),
    );
    const read = await client.readResource({ uri: 'resource:///tool_descriptions?tools=read_text_file' });
    t.match(
      (read.contents[0] as { text: string }).text,
      /Reviewed: reads a text file whole/,
      'the reviewed description is served',
    );
    await client.close();

    const stray = join(tempDir(), 'pd');
    cpSync(out, stray, { recursive: true });
    writeFileSync(
      join(stray, 'tool_descriptions', 'no_such_tool.json'),
      JSON.stringify({ name: 'no_such_tool', description: 'x', inputSchema: { type: 'object' } }),
    );
    const child = spawn(process.execPath, [CLI, 'serve', '--descriptions', stray, '--', 'node', FILESYSTEM, dir], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const init2 = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    child.stdin.write(
      `${JSON.stringify(init2)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`,
    );
    const code = await new Promise((resolve) => child.once('exit', resolve));
    t.equal(code, 2, 'exit code 2');
    // (the folder still holds init's REVIEW: texts: serve says so first, as a warning)
    t.match(stderr, /^mcp-pd-check serve: warning: the descriptions of .* still hold REVIEW: placeholders/m);
    const lines = stderr.split('\n').filter((l) => l.startsWith('mcp-pd-check') && !l.includes('serve: warning:'));
    t.equal(lines.length, 1, `one line: ${lines[0]}`);
    t.match(lines[0], /'no_such_tool', which the upstream server does not list/);
  },
);

t.test('bad input to serve is one line and exit 2', async (t) => {
  const none = await runCli(['serve', '--descriptions', join(tempDir(), 'nothing-here'), '--', 'node', MEMORY]);
  t.equal(none.code, 2);
  t.match(none.stderr, /--descriptions '.*nothing-here' is not a folder with tool_descriptions\//);
  const both = await runCli(['serve', '--url', 'http://127.0.0.1:1/mcp', '--', 'node', MEMORY]);
  t.equal(both.code, 2);
  t.match(both.stderr, /give either a server command or --url/);
});

/** A transport pair in memory: what one side sends, the other receives. */
function pair(): [Transport, Transport] {
  const make = (): Transport & { other?: Transport } => ({
    async start() {},
    async send(message) {
      queueMicrotask(() => this.other!.onmessage?.(message));
    },
    async close() {
      this.onclose?.();
    },
  });
  const a = make();
  const b = make();
  a.other = b;
  b.other = a;
  return [a, b];
}

t.test(
  'the hub: client ids survive the trip, a tools/list_changed from upstream refreshes the minimal list',
  async (t) => {
    const [upstreamSide, hubUpstream] = pair();
    const [clientSide, hubClient] = pair();
    let tools: Array<Record<string, unknown>> = [
      {
        name: 'alpha',
        description: 'Alpha does one thing. More detail here.',
        inputSchema: { type: 'object', properties: { x: { type: 'string' } } },
      },
    ];
    upstreamSide.onmessage = (m) => {
      const message = m as { id?: string | number; method?: string };
      if (message.id === undefined || message.method === undefined) return;
      const result =
        message.method === 'initialize'
          ? {
              protocolVersion: '2025-11-25',
              capabilities: { tools: { listChanged: true } },
              serverInfo: { name: 'up', version: '1' },
            }
          : message.method === 'tools/list'
            ? { tools }
            : message.method === 'tools/call'
              ? { content: [{ type: 'text', text: 'ran' }] }
              : {};
      void upstreamSide.send({ jsonrpc: '2.0', id: message.id, result });
    };
    const hub = new Hub(hubUpstream);
    hub.attach(hubClient);
    const replies = new Map<unknown, Record<string, unknown>>();
    const waiting = new Map<unknown, () => void>();
    clientSide.onmessage = (m) => {
      const message = m as { id?: unknown; result?: Record<string, unknown> };
      replies.set(message.id, message.result ?? {});
      waiting.get(message.id)?.();
    };
    const ask = (id: string | number, method: string, params: Record<string, unknown> = {}) =>
      new Promise<Record<string, unknown>>((resolve) => {
        waiting.set(id, () => resolve(replies.get(id)!));
        void clientSide.send({ jsonrpc: '2.0', id, method, params });
      });
    const init = await ask('init-7', 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    t.ok(
      (init.capabilities as Record<string, unknown>).resources,
      'the resources capability is declared for the tool_descriptions resource',
    );
    await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const first = await ask(41, 'tools/list');
    t.same(
      (first.tools as Array<{ name: string; description: string }>)
        .filter((x) => x.name !== 'get_tool_descriptions')
        .map((x) => [x.name, x.description]),
      [['alpha', 'Alpha does one thing.']],
      'minimal: the first sentence',
    );
    const refused = await ask(42, 'tools/call', { name: 'alpha', arguments: {} });
    t.match(JSON.stringify(refused), /TOOL_DESCRIPTION_REQUIRED/, 'unfetched: refused');
    await ask(43, 'resources/read', { uri: 'resource:///tool_descriptions?tools=alpha' });
    t.same(
      await ask(44, 'tools/call', { name: 'alpha', arguments: {} }),
      { content: [{ type: 'text', text: 'ran' }] },
      "fetched: forwarded, the answer under the client's own id",
    );
    tools = [...tools, { name: 'beta', description: 'Beta does another thing.', inputSchema: { type: 'object' } }];
    await upstreamSide.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await ask(45, 'tools/list');
    t.same(
      (second.tools as Array<{ name: string }>).map((x) => x.name),
      ['get_tool_descriptions', 'alpha', 'beta'],
      'after tools/list_changed, the new tool is listed (after the tool form of the resource)',
    );
  },
);

t.test(
  "everything else passes through: sampling, progress, prompts, other resources; the upstream's exit code ends the proxy",
  async (t) => {
    const everything = join(MODULES, 'server-everything', 'dist', 'index.js');
    const client = new Client({ name: 't', version: '1' }, { capabilities: { sampling: {} } });
    let sampled = 0;
    client.setRequestHandler(CreateMessageRequestSchema, async () => {
      sampled++;
      return { model: 'm', role: 'assistant', content: { type: 'text', text: 'sampled through the proxy' } };
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'serve', '--', 'node', everything, 'stdio'],
        stderr: 'ignore',
      }),
    );
    t.teardown(() => client.close());
    await client.readResource({
      uri: 'resource:///tool_descriptions?tools=trigger-sampling-request,trigger-long-running-operation',
    });
    const result = await client.callTool({
      name: 'trigger-sampling-request',
      arguments: { prompt: 'hi', maxTokens: 5 },
    });
    t.equal(sampled, 1, "the upstream's sampling request reached the client");
    t.match(JSON.stringify(result), /sampled through the proxy/, "and the client's answer reached the upstream");
    let progress = 0;
    await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 2 } }, undefined, {
      onprogress: () => progress++,
    });
    t.ok(progress >= 1, `progress notifications reach the client that asked (${progress})`);
    t.ok((await client.listPrompts()).prompts.length > 0, 'prompts pass through');
    const resources = (await client.listResources()).resources.map((r) => r.uri);
    t.equal(resources[0], 'resource:///tool_descriptions', 'the tool_descriptions resource comes first');
    t.ok(resources.length > 1, "then the upstream's own resources");

    const exits = await runCli(['serve', '--', 'node', '-e', 'process.exit(7)']);
    t.equal(exits.code, 7, 'an upstream that exits with 7 ends the proxy with 7');
  },
);

t.test('serve --listen on a port in use is one line and exit 2', async (t) => {
  const server = await serveListening(['--', 'node', MEMORY], { MEMORY_FILE_PATH: join(tempDir(), 'memory.jsonl') });
  t.teardown(server.stop);
  const port = new URL(server.url).port;
  const busy = await runCli(['serve', '--listen', port, '--', 'node', MEMORY]);
  t.equal(busy.code, 2);
  t.match(busy.stderr, new RegExp(`--listen ${port}: the port is in use`));
});
