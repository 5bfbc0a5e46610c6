// Progressive disclosure in every client (issue 42): a client whose model only lists and calls tools
// (VS Code, Copilot CLI, Claude Desktop, ChatGPT) gets in through the tool form of the resource —
// against the reference server and through `serve`, over stdio and HTTP, in both eras where a
// session exists; the checker checks the tool form and says which clients a server reaches.
import t, { type Test } from 'tap';
import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Behaviour } from '../reference-server/server.js';
import { LIVE_CHECKS } from '../checks/index.js';
import type { CheckReport } from '../src/generated/report.js';
import { withEnvelope } from '../src/transport/era.js';
import { referenceBehaviour } from '../fixtures/servers/serve.js';
import { CLI, REFERENCE, ROOT, runCli, serveListening, startHttp, tempDir } from './helpers.js';
import { installOutside } from './support/outside-install.js';
import { runInProcess } from './support/check-tester.js';
import { TEST_SEED } from './support/fixtures.js';

const FILESYSTEM = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
const MEMORY = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const run = promisify(execFile);

function sandbox(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'hello.txt'), 'hello through the tool form\n');
  return dir;
}

const refused = (result: unknown) => JSON.stringify(result).includes('TOOL_DESCRIPTION_REQUIRED');

/** A client that only lists and calls tools: list → a refused call → the tool form → the call runs. */
async function toolsOnly(t: Test, transport: Transport, tool: string, args: Record<string, unknown>): Promise<void> {
  const client = new Client({ name: 'tools-only', version: '1' });
  await client.connect(transport);
  t.teardown(() => client.close());
  const listed = (await client.listTools()).tools;
  const form = listed.find((x) => x.name === 'get_tool_descriptions');
  t.ok(form, 'tools/list offers get_tool_descriptions');
  t.match(
    form?._meta,
    { 'io.github.mcp-pd-check/mirrors-resource': 'resource:///tool_descriptions' },
    'marked as the tool form of the resource',
  );
  const first = await client.callTool({ name: tool, arguments: args });
  t.ok(refused(first), `${tool} unfetched: refused`);
  t.match(
    JSON.stringify(first),
    /descriptions_tool\\":\\"get_tool_descriptions/,
    'and the refusal names the tool form',
  );
  const described = await client.callTool({ name: 'get_tool_descriptions', arguments: { tools: [tool] } });
  const body = JSON.parse((described.content as Array<{ text: string }>)[0].text) as Record<
    string,
    { inputSchema?: unknown }
  >;
  t.ok(body[tool]?.inputSchema, 'the tool form returned its full description');
  const ran = await client.callTool({ name: tool, arguments: args });
  t.notOk(refused(ran), `${tool} now runs: ${JSON.stringify(ran).slice(0, 120)}`);
}

t.test('the reference server, tools only, over stdio and Streamable HTTP', async (t) => {
  await t.test('stdio', (t) =>
    toolsOnly(
      t,
      new StdioClientTransport({ command: process.execPath, args: [REFERENCE], stderr: 'ignore' }),
      'get_note',
      { id: 'note-1' },
    ),
  );
  const server = await startHttp(REFERENCE);
  t.teardown(server.stop);
  await t.test('http', (t) =>
    toolsOnly(t, new StreamableHTTPClientTransport(new URL(server.url)), 'get_note', { id: 'note-1' }),
  );
});

t.test('serve in front of server-filesystem, tools only, over stdio and --listen', async (t) => {
  const dir = sandbox();
  const args = { path: join(dir, 'hello.txt') };
  await t.test('stdio', (t) =>
    toolsOnly(
      t,
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'serve', '--', 'node', FILESYSTEM, dir],
        stderr: 'ignore',
      }),
      'read_text_file',
      args,
    ),
  );
  const server = await serveListening(['--', 'node', FILESYSTEM, dir]);
  t.teardown(server.stop);
  await t.test('http', (t) =>
    toolsOnly(t, new StreamableHTTPClientTransport(new URL(server.url)), 'read_text_file', args),
  );
});

t.test('a 2026-07-28 client over stdio (the process is its session): the same way in', async (t) => {
  for (const [name, command] of [
    ['the reference server', [REFERENCE]],
    ['serve in front of server-memory', [CLI, 'serve', '--', 'node', MEMORY]],
  ] as const) {
    const child = spawn(process.execPath, command, {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { ...process.env, MEMORY_FILE_PATH: join(tempDir(), 'memory.jsonl') },
    });
    t.teardown(() => {
      child.kill();
    });
    let buffer = '';
    const answers = new Map<number, Record<string, unknown>>();
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
        const m = JSON.parse(buffer.slice(0, i)) as { id?: number };
        if (typeof m.id === 'number') answers.set(m.id, m);
        buffer = buffer.slice(i + 1);
      }
    });
    let id = 0;
    const ask = async (method: string, params: Record<string, unknown> = {}) => {
      const mine = ++id;
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: mine, method, params: withEnvelope(params, { name: 'modern', version: '1' }) })}\n`,
      );
      for (let k = 0; k < 600 && !answers.has(mine); k++) await new Promise((resolve) => setTimeout(resolve, 50));
      return answers.get(mine)!;
    };
    const tool = name === 'the reference server' ? 'list_notes' : 'read_graph';
    t.ok(refused(await ask('tools/call', { name: tool, arguments: {} })), `${name}: refused unfetched`);
    await ask('tools/call', { name: 'get_tool_descriptions', arguments: { tools: [tool] } });
    t.notOk(
      refused(await ask('tools/call', { name: tool, arguments: {} })),
      `${name}: runs once fetched through the tool form`,
    );
  }
});

t.test(
  'the checker: yes for serve in front of server-memory, the tool form checked, and every client reached',
  async (t) => {
    const run = await runCli([
      '--format',
      'json',
      '--env',
      `MEMORY_FILE_PATH=${join(tempDir(), 'memory.jsonl')}`,
      '--',
      process.execPath,
      CLI,
      'serve',
      '--',
      'node',
      MEMORY,
    ]);
    const report = JSON.parse(run.stdout) as CheckReport;
    t.equal(report.verdict?.implements, 'yes', report.verdict?.summary ?? run.stderr);
    t.ok(
      report.results.filter((r) => r.id === 'pd-descriptions-tool').every((r) => r.status === 'pass'),
      'pd-descriptions-tool passes',
    );
    t.match(
      report.verdict?.reach,
      { toolForm: 'get_tool_descriptions', toolFormWorks: true },
      'the reach: every client',
    );
    const text = await runCli([
      '--explore',
      '0',
      '--env',
      `MEMORY_FILE_PATH=${join(tempDir(), 'memory.jsonl')}`,
      '--',
      process.execPath,
      CLI,
      'serve',
      '--no-descriptions-tool',
      '--',
      'node',
      MEMORY,
    ]);
    t.match(
      text.stdout,
      /reaches Claude Code, Codex \(CLI, IDE\), Cursor and Qwen Code \(their model reads resources\); in VS Code \(Copilot\), .* every call will be refused/,
      'without the tool form, the others are named, with the fix',
    );
  },
);

t.test('a tool of that shape without the mark is an ordinary tool', async (t) => {
  const unmarked: Partial<Behaviour> = {
    descriptionsTool() {
      const { _meta: _m, ...entry } = referenceBehaviour.descriptionsTool.call(this)!;
      return entry;
    },
  };
  const report = await runInProcess(LIVE_CHECKS, { reference: unmarked }, { seed: TEST_SEED });
  t.equal(report.results.find((r) => r.id === 'pd-descriptions-tool')?.status, 'skip', 'no tool form is checked');
  t.ok(
    report.results
      .find((r) => r.id === 'pd-minimal-descriptions')
      ?.findings.some((f) => f.code === 'parameters-in-list' && f.location?.tool === 'get_tool_descriptions'),
    "its listed schema is judged as any tool's",
  );
  t.ok(
    report.results
      .find((r) => r.id === 'pd-description-required')
      ?.findings.some((f) => f.level === 'error' && f.location?.tool === 'get_tool_descriptions'),
    "and its unfetched call as any tool's",
  );
});

/** The MCP Inspector's CLI, from npm at test time with a Node of its own (it wants Node >= 22), outside the project. */
const INSPECTOR = '@modelcontextprotocol/inspector@0.21.2';
const inspectorInstall = await installOutside('inspector', [INSPECTOR], join('node_modules', '.bin', 'mcp-inspector'));
const inspectorDir = inspectorInstall.dir;
const noInspector = inspectorInstall.unreachable;

t.test(
  `the MCP Inspector CLI (${INSPECTOR}) lists the tools, the templates and the resources of a served server`,
  { skip: noInspector ?? false },
  async (t) => {
    const node = join(inspectorDir, 'node_modules', '.bin', 'node');
    const inspector = join(inspectorDir, 'node_modules', '.bin', 'mcp-inspector');
    const env = { ...process.env, PATH: `${join(inspectorDir, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` };
    const target = [process.execPath, CLI, 'serve', '--', 'node', FILESYSTEM, sandbox()];
    for (const [method, expect] of [
      ['tools/list', /get_tool_descriptions/],
      ['resources/templates/list', /resource:\/\/\/tool_descriptions\{\?tools\}/],
      ['resources/list', /resource:\/\/\/tool_descriptions/],
    ] as const) {
      const done = await run(node, [inspector, '--cli', '--method', method, ...target], { env, timeout: 120_000 }).then(
        (r) => ({ ...r, code: 0 }),
        (err: { stdout?: string; stderr?: string; code?: number }) => ({
          stdout: err.stdout ?? '',
          stderr: err.stderr ?? '',
          code: err.code ?? 1,
        }),
      );
      t.equal(done.code, 0, `${method}: exit 0 ${done.stderr.slice(0, 200)}`);
      t.match(done.stdout, expect, `${method}: what it lists`);
    }
  },
);
