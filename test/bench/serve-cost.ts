// What `serve` costs beside the upstream: the time a message spends in the proxy (calls through it
// against calls straight to the upstream, alternating) and the proxy process's own memory.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, median } from '../helpers.js';

const CALLS = 300;

async function connect(command: string, args: string[], env: Record<string, string>): Promise<{ client: Client; pid?: number }> {
  const transport = new StdioClientTransport({ command, args, env: { ...process.env, ...env } as Record<string, string>, stderr: 'ignore' });
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
export async function serveCost(upstream: string[], env: Record<string, string>): Promise<{ directMs: number; proxiedMs: number; proxyRssMb?: number }> {
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
