/**
 * mcp-pd-check/testing: run one check of a plugin against a server, or against files, and assert on
 * what it found — what ESLint's RuleTester is to rule authors (docs/plugins.md). It needs no test
 * framework: testCheck throws an AssertionError that names every case that went wrong, so it works
 * in node:test, Vitest, tap or Jest alike.
 *
 *   import { testCheck } from 'mcp-pd-check/testing';
 *   test('acme/tool-prefix', () => testCheck(plugin, 'tool-prefix', {
 *     valid: [{ name: 'prefixed names', server: { script: acmeServer } }],
 *     invalid: [{ name: 'a name without acme_', server: { command: ['node', 'other.js'] }, errors: [{ code: 'no-prefix', args: { tool: 'search' } }] }],
 *   }));
 */
import { AssertionError } from 'node:assert';
import type { CheckResult, Finding } from '../generated/report.js';
import { checkServer } from '../library/check-server.js';
import { lint } from '../library/lint.js';
import { pluginChecks, type Plugin } from '../core/plugin.js';
import { checkTarget } from '../run/live.js';
import { runPlan } from '../run/run-plan.js';
import { InProcessTarget, type Script } from './in-process.js';
import type { JsonObject } from '../transport/types.js';

export type { Script } from './in-process.js';

/** What a case runs against: a server command, a URL, a JSON-RPC handler in the test, or files to lint. */
export type CheckTarget =
  | { command: string[]; env?: Record<string, string>; cwd?: string }
  | { url: string; headers?: Record<string, string> }
  /** A server in the test: each request of each session answered by the handler (undefined: no answer). */
  | { script: Script }
  /** Files and folders for a lint check (needs: 'folder'). */
  | { lint: string[]; cwd?: string };

export interface RunOptions {
  /** Per-request time limit (ms; default 5,000). */
  timeoutMs?: number;
  /** The protocol era to speak to a command or URL (default 2025-11-25; 'all' runs the check in each era it speaks). */
  protocol?: 'all' | '2025-11-25' | '2026-07-28';
}

/** A finding a case expects: its code, and (some of) its args. */
export interface ExpectedFinding {
  code: string;
  args?: Record<string, unknown>;
}

export interface ValidCase {
  name: string;
  target: CheckTarget;
  /** What the check must end with (default pass). */
  status?: 'pass' | 'skip';
}

export interface InvalidCase {
  name: string;
  target: CheckTarget;
  /** Every failure and warning the check must report, by code (each listed code at least once, no other code). */
  errors: ExpectedFinding[];
}

/** What a scripted server lists and answers (scriptedServer). */
export interface ScriptedServer {
  /** Its tools/list entries. */
  tools: JsonObject[];
  /** Its resources/list entries (default none). */
  resources?: JsonObject[];
  /** The result of a tools/call (default: the error -32601). */
  call?: (name: string, args: JsonObject) => JsonObject;
  /** Its serverInfo (default: { name: 'scripted', version: '0.0.0' }). */
  serverInfo?: { name: string; version: string };
}

/**
 * A small MCP server of 2025-11-25 as a script: initialize, tools/list, resources/list, ping and
 * tools/call; any other request is the error -32601. What a plugin's tests run its checks against.
 */
export function scriptedServer(server: ScriptedServer): Script {
  return (message) => {
    const params = (message.params ?? {}) as JsonObject;
    switch (message.method) {
      case 'initialize':
        return {
          result: {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {}, ...(server.resources?.length ? { resources: {} } : {}) },
            serverInfo: server.serverInfo ?? { name: 'scripted', version: '0.0.0' },
          },
        };
      case 'tools/list':
        return { result: { tools: server.tools } };
      case 'resources/list':
        return { result: { resources: server.resources ?? [] } };
      case 'ping':
        return { result: {} };
      case 'tools/call':
        if (server.call) return { result: server.call(String(params.name), (params.arguments ?? {}) as JsonObject) };
        return { error: { code: -32601, message: 'tools/call is not answered by this scripted server' } };
      default:
        return { error: { code: -32601, message: `Method not found: ${String(message.method)}` } };
    }
  };
}

/** The check's results (one per protocol era checked) for one target. */
export async function runCheck(
  plugin: Plugin<unknown>,
  checkId: string,
  target: CheckTarget,
  options: RunOptions = {},
): Promise<CheckResult[]> {
  const checks = pluginChecks(plugin);
  const id = `${plugin.name}/${checkId.replace(`${plugin.name}/`, '')}`;
  const check = checks.find((c) => c.id === id);
  if (!check)
    throw new Error(
      `the plugin '${plugin.name}' has no check '${id}' (it has ${checks.map((c) => `'${c.id}'`).join(', ') || 'none'})`,
    );
  const timeoutMs = options.timeoutMs ?? 5000;
  if ('lint' in target) {
    const report = await lint(target.lint, {
      plugins: [plugin],
      only: [id],
      ...(target.cwd ? { cwd: target.cwd } : {}),
    });
    return report.results.filter((r) => r.id === id);
  }
  if ('script' in target) {
    const live = { timeoutMs, sessions: 3, safeCalls: false, require: [], explore: 0, seed: 1 };
    const inProcess = new InProcessTarget({ script: target.script }, timeoutMs);
    const report = await checkTarget(inProcess, runPlan([check], live, true), {});
    return report.results.filter((r) => r.id === id);
  }
  const report = await checkServer({
    ...('command' in target
      ? {
          command: target.command,
          ...(target.env ? { env: target.env } : {}),
          ...(target.cwd ? { cwd: target.cwd } : {}),
        }
      : { url: target.url, ...(target.headers ? { headers: target.headers } : {}) }),
    plugins: [plugin],
    only: [id],
    explore: 0,
    timeoutMs,
    protocol: options.protocol ?? '2025-11-25',
  });
  return report.results.filter((r) => r.id === id);
}

/**
 * Runs every case and throws one AssertionError listing each that went wrong: a valid case must
 * pass (or skip, where said); an invalid one must report exactly the codes listed (errors and
 * warnings, each at least once), each with the args given, and every message filled.
 */
export async function testCheck(
  plugin: Plugin<unknown>,
  checkId: string,
  cases: { valid?: ValidCase[]; invalid?: InvalidCase[] },
  options: RunOptions = {},
): Promise<void> {
  const wrong: string[] = [];
  for (const c of cases.valid ?? []) {
    for (const result of await runCheck(plugin, checkId, c.target, options)) {
      const expected = c.status ?? 'pass';
      if (result.status !== expected)
        wrong.push(`valid '${c.name}': ${result.status} (expected ${expected})${said(result.findings)}`);
    }
  }
  for (const c of cases.invalid ?? []) {
    for (const result of await runCheck(plugin, checkId, c.target, options)) {
      const found = result.findings.filter((f) => f.level !== 'info');
      const codes = [...new Set(found.map((f) => f.code))].sort();
      const expected = [...new Set(c.errors.map((e) => e.code))].sort();
      if (JSON.stringify(codes) !== JSON.stringify(expected))
        wrong.push(
          `invalid '${c.name}': codes ${codes.join(', ') || 'none'} (expected ${expected.join(', ')})${said(result.findings)}`,
        );
      for (const e of c.errors.filter((x) => x.args)) {
        if (!found.some((f) => f.code === e.code && contains(f.args, e.args!)))
          wrong.push(`invalid '${c.name}': no '${e.code}' with args ${JSON.stringify(e.args)}${said(result.findings)}`);
      }
      for (const f of found)
        if (/\{[A-Za-z_]\w*(\|[^}]*)?\}/.test(f.message))
          wrong.push(`invalid '${c.name}': a placeholder left in "${f.message}"`);
    }
  }
  if (wrong.length)
    throw new AssertionError({
      message: `${plugin.name}/${checkId.replace(`${plugin.name}/`, '')}:\n  ${wrong.join('\n  ')}`,
    });
}

/** What the check said, for a message. */
function said(findings: readonly Finding[]): string {
  return findings.length ? `: ${findings.map((f) => `${f.code} (${f.message})`).join('; ')}` : '';
}

/** Whether `args` holds every key of `expected` with an equal value (JSON-equal). */
function contains(args: Record<string, unknown>, expected: Record<string, unknown>): boolean {
  return Object.entries(expected).every(([k, v]) => JSON.stringify(args[k]) === JSON.stringify(v));
}
