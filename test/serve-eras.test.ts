// Both protocol eras against a server built on the TypeScript SDK v2 that speaks 2026-07-28 only
// (it refuses initialize): the checker runs it over stdio and HTTP, init reads it, and `serve`
// in front of it serves clients of either era with progressive disclosure.
import { isToolForm } from '../src/protocol/tool-form.js';
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { CLI, ROOT, runCli, serveListening, startHttp, tempDir } from './helpers.js';

const MODERN_ONLY = join(ROOT, 'dist', 'fixtures', 'sdk-v2', 'modern-notes.js');
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
};

function eraVerdicts(report: CheckReport): Record<string, string | undefined> {
  return Object.fromEntries((report.eras ?? []).map((e) => [e.era, e.checked ? e.verdict?.implements : 'not checked']));
}

async function check(t: Test, args: string[]): Promise<CheckReport> {
  const run = await runCli(['--format', 'json', ...args]);
  t.ok(run.code === 0 || run.code === 1, `the run ended in a verdict (exit ${run.code}) ${run.stderr}`);
  return JSON.parse(run.stdout) as CheckReport;
}

t.test('a modern-only SDK v2 server gets a full run over stdio and over HTTP, in 2026-07-28 only', async (t) => {
  const http = await startHttp(MODERN_ONLY);
  t.teardown(http.stop);
  for (const [how, args] of [
    ['stdio', ['--', process.execPath, MODERN_ONLY]],
    ['HTTP', ['--url', http.url]],
  ] as const) {
    const report = await check(t, [...args]);
    t.same(
      eraVerdicts(report),
      { '2025-11-25': 'not checked', '2026-07-28': 'no' },
      `${how}: checked in the era it speaks; it does no progressive disclosure`,
    );
    t.ok(
      (report.verdict?.tokens?.listed ?? 0) > 0 || (report.verdict?.summary ?? '').includes('tokens'),
      `${how}: token figures: ${report.verdict?.summary}`,
    );
    t.ok(
      report.results.every((r) => r.status !== 'error'),
      `${how}: no check errored`,
    );
    t.ok(
      report.results.every((r) => r.era === '2026-07-28'),
      `${how}: every result is of 2026-07-28`,
    );
    t.equal(report.results.find((r) => r.id === 'mcp-ping')?.status, 'skip', `${how}: ping is not a 2026-07-28 check`);
    t.equal(report.results.find((r) => r.id === 'mcp-tool-names')?.status, 'pass', `${how}: base checks ran`);
  }
});

t.test('init reads a modern-only server', async (t) => {
  const out = tempDir();
  const run = await runCli(['init', '--out', out, '--', process.execPath, MODERN_ONLY]);
  t.equal(run.code, 0, run.stderr);
  t.ok(existsSync(join(out, 'tool_descriptions', 'get_note.json')), 'a description per tool');
});

t.test('serve in front of a modern-only server: the checker says yes in both eras, over stdio and HTTP', async (t) => {
  const stdio = await check(t, ['--', process.execPath, CLI, 'serve', '--', process.execPath, MODERN_ONLY]);
  t.same(eraVerdicts(stdio), { '2025-11-25': 'yes', '2026-07-28': 'yes' }, stdio.verdict?.summary ?? '');

  const upstream = await startHttp(MODERN_ONLY);
  t.teardown(upstream.stop);
  for (const [how, args] of [
    ['a stdio upstream', ['--', process.execPath, MODERN_ONLY]],
    ['an HTTP upstream', ['--url', upstream.url]],
  ] as const) {
    const proxy = await serveListening([...args]);
    const report = await check(t, ['--url', proxy.url]);
    await proxy.stop();
    t.same(
      eraVerdicts(report),
      { '2025-11-25': 'yes', '2026-07-28': 'yes' },
      `serve --listen, ${how}: ${report.verdict?.summary}`,
    );
    t.equal(report.summary.failed, 0, `serve --listen, ${how}: nothing failed`);
  }
});

t.test('a 2026-07-28 client over stdio: the process is its session, so a call waits for the fetch', async (t) => {
  const child = spawn(process.execPath, [CLI, 'serve', '--', process.execPath, MODERN_ONLY], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  t.teardown(() => {
    child.kill();
  });
  const answers = new Map<number, Record<string, unknown>>();
  let buffer = '';
  const waiters = new Map<number, () => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const message = JSON.parse(buffer.slice(0, nl)) as { id?: number };
      buffer = buffer.slice(nl + 1);
      if (typeof message.id === 'number') {
        answers.set(message.id, message);
        waiters.get(message.id)?.();
      }
    }
  });
  let next = 0;
  const ask = (method: string, params: Record<string, unknown> = {}) => {
    const id = ++next;
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: ENVELOPE } })}\n`);
    return new Promise<Record<string, unknown>>((resolve) => waiters.set(id, () => resolve(answers.get(id)!)));
  };
  const discovered = (await ask('server/discover')).result as {
    supportedVersions: string[];
    capabilities: Record<string, unknown>;
    resultType: string;
  };
  t.ok(discovered.supportedVersions.includes('2026-07-28'), 'server/discover lists 2026-07-28');
  t.ok(discovered.capabilities.resources, 'the proxy declares resources (the tool_descriptions resource)');
  const listed = (await ask('tools/list')).result as {
    tools: Array<{ inputSchema: Record<string, unknown> }>;
    resultType: string;
    ttlMs: number;
    cacheScope: string;
  };
  t.equal(listed.resultType, 'complete');
  t.equal(listed.cacheScope, 'public', 'the minimal listing is the same for every client');
  t.ok(
    listed.tools.every((tool) => !('properties' in tool.inputSchema) || isToolForm(tool)),
    'tools/list is minimal (but for the tool form of the resource)',
  );
  const call = { name: 'get_note', arguments: { id: '1' } };
  const refused = (await ask('tools/call', call)).result as { isError: boolean; content: unknown };
  t.ok(
    refused.isError && JSON.stringify(refused.content).includes('TOOL_DESCRIPTION_REQUIRED'),
    'refused before the fetch',
  );
  const read = (await ask('resources/read', { uri: 'resource:///tool_descriptions?tools=get_note' })).result as {
    contents: Array<{ text: string }>;
  };
  t.match(read.contents[0].text, /get_note/, 'the full description');
  const answered = (await ask('tools/call', call)).result as { isError?: boolean; content: Array<{ text: string }> };
  t.equal(answered.content[0].text, 'Buy milk', "after the fetch, the upstream's answer");
  const ping = (await ask('ping')).error as { code: number } | undefined;
  t.equal(ping?.code, -32601, 'ping is not a 2026-07-28 method');
});

t.test('a fleet of a modern-only server and serve in front of it: a verdict for each', async (t) => {
  const config = join(tempDir(), 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        modern: { command: process.execPath, args: [MODERN_ONLY] },
        'modern-pd': { command: process.execPath, args: [CLI, 'serve', '--', process.execPath, MODERN_ONLY] },
      },
    }),
  );
  const run = await runCli(['--format', 'json', '--server-config', config, '--jobs', '2']);
  t.equal(run.code, 1, 'the server without progressive disclosure fails');
  const fleet = JSON.parse(run.stdout) as { servers: Array<{ name: string; report?: CheckReport }> };
  const verdicts = Object.fromEntries(
    fleet.servers.map((s) => [s.name, s.report ? eraVerdicts(s.report) : 'not checked']),
  );
  t.same(verdicts, {
    modern: { '2025-11-25': 'not checked', '2026-07-28': 'no' },
    'modern-pd': { '2025-11-25': 'yes', '2026-07-28': 'yes' },
  });
});
