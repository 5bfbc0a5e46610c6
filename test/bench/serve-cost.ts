// What `serve` costs beside the upstream: the time a message spends in the proxy (calls through it
// against calls straight to the upstream, alternating) and the proxy process's own memory.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, median } from '../helpers.js';

const CALLS = 300;

async function connect(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ client: Client; pid?: number }> {
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...process.env, ...env } as Record<string, string>,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return { client, pid: transport.pid ?? undefined };
}

function rssMb(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb ? Number(kb) / 1024 : undefined;
}

/** RSS of a Node process that does nothing: the floor under any proxy written in Node. */
export async function bareNodeRssMb(): Promise<number | undefined> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rss = rssMb(child.pid);
  child.kill();
  return rss;
}

/** Median ms of a read-only call, straight and through the proxy, and the proxy's RSS after the calls. */
export async function serveCost(
  upstream: string[],
  env: Record<string, string>,
): Promise<{ directMs: number; proxiedMs: number; proxyRssMb?: number }> {
  const direct = await connect('node', upstream, env);
  const proxied = await connect(process.execPath, [CLI, 'serve', '--', 'node', ...upstream], env);
  await proxied.client.readResource({ uri: 'resource:///tool_descriptions?tools=read_graph' });
  const call = { name: 'read_graph', arguments: {} };
  const d: number[] = [];
  const p: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    let t = performance.now();
    await direct.client.callTool(call);
    d.push(performance.now() - t);
    t = performance.now();
    await proxied.client.callTool(call);
    p.push(performance.now() - t);
  }
  const proxyRssMb = rssMb(proxied.pid);
  await Promise.all([direct.client.close(), proxied.client.close()]);
  return { directMs: median(d), proxiedMs: median(p), ...(proxyRssMb !== undefined ? { proxyRssMb } : {}) };
}

export const MEMORY_SERVER = (modules: string) => join(modules, 'server-memory', 'dist', 'index.js');

/** Peak and current RSS (MB) and CPU seconds of a process, from /proc. */
function usage(pid: number | undefined): { peakMb: number; rssMb: number; cpuS: number } | undefined {
  if (!pid) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { peakMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024, cpuS: (Number(stat[11]) + Number(stat[12])) / 100 };
  } catch {
    return undefined;
  }
}

/**
 * What a hostile client can make `serve` hold (issue 41): 2,000 initialize POSTs to --listen (the
 * sessions it keeps and the memory they add), one 200 MB line over stdio (time and peak memory),
 * and a client that never reads stdout while its requests are answered (peak memory).
 */
export async function serveBounds(upstream: string[]): Promise<{
  sessions: { kept: string; addedMb: number };
  hugeLine: { cpuS: number; peakMb: number };
  unread: { peakMb: number; sent: number };
}> {
  const { spawn } = await import('node:child_process');
  const { serveListening } = await import('../helpers.js');
  const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

  const listening = await serveListening(['--', ...upstream]);
  const pidOf = async (port: string) => {
    const { execFileSync } = await import('node:child_process');
    const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
    return Number(/pid=(\d+)/.exec(out)?.[1]);
  };
  const pid = await pidOf(new URL(listening.url).port);
  await settle();
  const before = usage(pid)?.rssMb ?? 0;
  const statuses = new Map<number, number>();
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  for (let i = 0; i < 2000; i += 20) {
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        const res = await fetch(listening.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body,
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        await res.text();
      }),
    );
  }
  await settle();
  const after = usage(pid)?.rssMb ?? 0;
  await listening.stop();

  const line = spawn(process.execPath, [CLI, 'serve', '--', ...upstream], { stdio: ['pipe', 'ignore', 'ignore'] });
  line.stdin.on('error', () => {});
  const chunk = Buffer.alloc(1024 * 1024, 'x');
  line.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"');
  for (let mb = 0; mb < 200; mb++)
    if (!line.stdin.write(chunk)) await new Promise((resolve) => line.stdin.once('drain', resolve));
  line.stdin.write('"}}\n');
  await settle();
  const huge = usage(line.pid);
  line.kill();

  const unread = spawn(process.execPath, [CLI, 'serve', '--', ...upstream], { stdio: ['pipe', 'pipe', 'ignore'] });
  unread.stdout.pause(); // never read
  unread.stdin.on('error', () => {});
  const send = (m: unknown) => unread.stdin.write(`${JSON.stringify(m)}\n`);
  send({
    jsonrpc: '2.0',
    id: 'i',
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({
    jsonrpc: '2.0',
    id: 'r',
    method: 'resources/read',
    params: { uri: 'resource:///tool_descriptions?tools=echo_op' },
  });
  const text = 'y'.repeat(10_000);
  let sent = 0;
  const started = performance.now();
  // As long as serve takes them (it stops reading once its answers wait), for at most 5 s.
  while (performance.now() - started < 5000 && sent < 50_000) {
    // Once serve stops reading, what is written waits here: wait for it rather than pile it up.
    if (unread.stdin.writableLength > 1024 * 1024) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    sent++;
    send({ jsonrpc: '2.0', id: sent, method: 'tools/call', params: { name: 'echo_op', arguments: { text } } });
  }
  await settle();
  const unreadUsage = usage(unread.pid);
  unread.kill('SIGKILL');
  return {
    sessions: { kept: [...statuses].map(([status, n]) => `${n}× ${status}`).join(', '), addedMb: after - before },
    hugeLine: { cpuS: huge?.cpuS ?? NaN, peakMb: huge?.peakMb ?? NaN },
    unread: { peakMb: unreadUsage?.peakMb ?? NaN, sent },
  };
}
