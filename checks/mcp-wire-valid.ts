import { defineLiveCheck } from '../src/run/check.js';
import { SPARE } from '../src/transport/target.js';
import { afterEndOf } from '../src/transport/session.js';
import { isPlainObject } from '../src/protocol/payload.js';
import { clip } from '../src/util/text.js';
import { MAX_DEPTH, TOO_DEEP, TOO_LARGE } from '../src/transport/limits.js';
import { MODERN_ERA, type Era } from '../src/transport/era.js';

const MAX_FINDINGS = 20;

/** The part of a zod schema this check uses. */
interface ResultSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } };
}

const messages = {
  'too-deep': {
    message: `Session {session}: the server sent a message nested deeper than ${MAX_DEPTH} levels, which was cut: {text}.`,
    hint: 'Keep messages (schemas above all) shallow; clients and LLM APIs reject deeply nested JSON.',
  },
  'too-large': {
    message: 'Session {session}: the server sent a message larger than the --max-response limit; the session was ended: {text}.',
    hint: 'Page large results (nextCursor) and keep each message small; raise --max-response if this size is intended.',
  },
  'not-json-rpc': { message: 'Session {session}: the server wrote something that is not a JSON-RPC message: "{text}".', hint: 'Over stdio, write only JSON-RPC to stdout; send logs to stderr.' },
  'stray-reply': { message: 'Session {session}: the server answered under an id that no request had: {reply}.', hint: 'Echo the id of each request in its response, unchanged (same value and type).' },
  'bad-envelope': { message: 'The reply to {method} is not valid JSON-RPC: {problem}.', hint: 'Reply with {"jsonrpc":"2.0","id":<request id>,"result"|"error":…}; error.code is an integer.' },
  'schema-mismatch': { message: 'The {method} result does not match the MCP {era} schema: {issues}.', hint: 'Fix the result shape; the MCP SDKs reject such replies.' },
  'checked': '{count|reply|replies} checked against the MCP SDK schemas of {era} ({sdk}).',
} as const;

export default defineLiveCheck({
  id: 'mcp-wire-valid',
  title: "Every message the server sent in this run is valid JSON-RPC and matches the SDK's MCP schemas",
  spec: { doc: 'mcp-tools', section: 'Protocol Messages', level: 'MUST', requirements: ['MCP-err-a'] },
  needs: 'session',
  // It reads the traffic of every other check, deferred work included.
  reads: ['traffic'],
  sessionUse: 'none: it reads every message the other checks received, so it runs last',
  preload: () => import('@modelcontextprotocol/sdk/types.js'),
  messages,
  async run(ctx) {
    const { schemas: byMethod, sdk } = await schemasOf(ctx.era);
    const { fail, done } = ctx.capped(MAX_FINDINGS);
    let checked = 0;
    for (const session of ctx.facts.traffic) {
      for (const line of session.garbage) {
        if (line.startsWith(TOO_DEEP)) fail('too-deep', { session: session.label, text: clip(line.slice(TOO_DEEP.length + 2), 120) });
        else if (line.startsWith(TOO_LARGE)) fail('too-large', { session: session.label, text: clip(line.slice(TOO_LARGE.length + 2), 120) });
        else fail('not-json-rpc', { session: session.label, text: clip(line, 120) });
      }
      for (const reply of session.strayReplies) fail('stray-reply', { session: session.label, reply: clip(reply, 160) });
      for (const ex of session.exchanges) {
        const r = ex.response;
        // A request under an ended session's id is answered at the HTTP level (404): the model judges it.
        if (!r || afterEndOf(ex)) continue;
        // A spare that no check took was started by timing, not by the run's plan: checked, not counted.
        if (session.label !== SPARE) checked++;
        const problem = envelopeProblem(r, ex.request.id);
        if (problem) {
          fail('bad-envelope', { method: ex.method, problem }, { transcript: [ex] });
          continue;
        }
        const schema = byMethod[ex.method];
        if (!schema || !('result' in r)) continue;
        const parsed = schema.safeParse(r.result);
        if (!parsed.success) {
          const issues = parsed.error!.issues.slice(0, 3).map((i) => `${i.path.map(String).join('.') || '(result)'}: ${i.message}`).join('; ');
          fail('schema-mismatch', { method: ex.method, era: ctx.era, issues }, { transcript: [ex] });
        }
      }
    }
    done();
    ctx.info('checked', { count: checked, era: ctx.era, sdk });
  },
});

/**
 * The result schemas of an era's SDK, loaded only here (~0.1–0.2 s): 2025-11-25 by the SDK v1 the
 * checker speaks with, 2026-07-28 by the SDK v2's core (`@modelcontextprotocol/core`), whose
 * schemas hold that era's messages (server/discover in place of initialize).
 */
async function schemasOf(era: Era): Promise<{ schemas: Record<string, ResultSchema>; sdk: string }> {
  const modern = era === MODERN_ERA;
  type Schemas = Record<'DiscoverResultSchema' | 'InitializeResultSchema' | 'ListToolsResultSchema' | 'CallToolResultSchema' | 'ListResourcesResultSchema' | 'ReadResourceResultSchema', ResultSchema>;
  const lib = (modern ? await import('@modelcontextprotocol/core') : await import('@modelcontextprotocol/sdk/types.js')) as unknown as Schemas;
  const schemas = {
    ...(modern ? { 'server/discover': lib.DiscoverResultSchema } : { initialize: lib.InitializeResultSchema }),
    'tools/list': lib.ListToolsResultSchema,
    'tools/call': lib.CallToolResultSchema,
    'resources/list': lib.ListResourcesResultSchema,
    'resources/read': lib.ReadResourceResultSchema,
  };
  return { schemas, sdk: modern ? '@modelcontextprotocol/core 2' : '@modelcontextprotocol/sdk 1' };
}

function envelopeProblem(r: Record<string, unknown>, id: unknown): string | undefined {
  if (r.jsonrpc !== '2.0') return `"jsonrpc" is ${JSON.stringify(r.jsonrpc)}, not "2.0"`;
  if (r.id !== id) return `its id ${JSON.stringify(r.id)} does not match the request id ${JSON.stringify(id)}`;
  const hasResult = 'result' in r;
  const hasError = 'error' in r;
  if (hasResult === hasError) return hasResult ? 'it has both "result" and "error"' : 'it has neither "result" nor "error"';
  if (hasError) {
    const e = r.error;
    if (!isPlainObject(e)) return '"error" is not an object';
    if (typeof e.code !== 'number' || !Number.isInteger(e.code)) return `error.code is ${JSON.stringify(e.code)}, not an integer`;
    if (typeof e.message !== 'string') return 'error.message is not a string';
  }
  return undefined;
}
