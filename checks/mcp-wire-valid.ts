import { defineLiveCheck } from '../src/run/check.js';
import { SPARE } from '../src/transport/target.js';
import { afterEndOf } from '../src/transport/exchange-times.js';
import { isPlainObject } from '../src/protocol/payload.js';
import { clip } from '../src/util/text.js';
import { MAX_DEPTH, TOO_DEEP, TOO_LARGE } from '../src/transport/limits.js';
import { hasResultSchema, resultIssues, schemasOf, sdkOf, type WireResult } from '../src/protocol/wire-schemas.js';
import { onSideThread, preloadWhere } from '../src/util/side-thread.js';

const MAX_FINDINGS = 20;

const messages = {
  'too-deep': {
    message: `Session {session}: the server sent a message nested deeper than ${MAX_DEPTH} levels, which was cut: {text}.`,
    hint: 'Keep messages (schemas above all) shallow; clients and LLM APIs reject deeply nested JSON.',
  },
  'too-large': {
    message:
      'Session {session}: the server sent a message larger than the --max-response limit; the session was ended: {text}.',
    hint: 'Page large results (nextCursor) and keep each message small; raise --max-response if this size is intended.',
  },
  'not-json-rpc': {
    message: 'Session {session}: the server wrote something that is not a JSON-RPC message: "{text}".',
    hint: 'Over stdio, write only JSON-RPC to stdout; send logs to stderr.',
  },
  'stray-reply': {
    message: 'Session {session}: the server answered under an id that no request had: {reply}.',
    hint: 'Echo the id of each request in its response, unchanged (same value and type).',
  },
  'bad-envelope': {
    message: 'The reply to {method} is not valid JSON-RPC: {problem}.',
    hint: 'Reply with {"jsonrpc":"2.0","id":<request id>,"result"|"error":…}; error.code is an integer.',
  },
  'schema-mismatch': {
    message: 'The {method} result does not match the MCP {era} schema: {issues}.',
    hint: 'Fix the result shape; the MCP SDKs reject such replies.',
  },
  checked: '{count|reply|replies} checked against the MCP SDK schemas of {era} ({sdk}).',
} as const;

export default defineLiveCheck({
  id: 'mcp-wire-valid',
  title: "Every message the server sent in this run is valid JSON-RPC and matches the SDK's MCP schemas",
  spec: { doc: 'mcp-tools', section: 'Protocol Messages', level: 'MUST', requirements: ['MCP-err-a'] },
  needs: 'session',
  // It reads the traffic of every other check, deferred work included.
  reads: ['traffic'],
  sessionUse: 'none: it reads every message the other checks received, so it runs last',
  // Over HTTP the schemas of the run's era load, and results are checked, in the run's side thread.
  preload: ({ cheapSessions, era }) => preloadWhere(cheapSessions, { kind: 'load-schemas', era }, () => schemasOf(era)),
  messages,
  async run(ctx) {
    const era = ctx.era;
    // Every result its era's SDK has a schema for, checked in one job (one with a bad envelope too:
    // the loop below reports that instead, and never reads its check).
    const results: WireResult[] = [];
    const indexOf = new Map<object, number>();
    for (const session of ctx.facts.traffic) {
      for (const ex of session.exchanges) {
        const r = ex.response;
        if (!r || afterEndOf(ex) || !('result' in r) || !hasResultSchema(era, ex.method)) continue;
        indexOf.set(ex, results.push({ method: ex.method, result: r.result }) - 1);
      }
    }
    const issuesOf = results.length
      ? await onSideThread({ kind: 'result-issues', era, results }, () => resultIssues(era, results))
      : [];
    const { fail, done } = ctx.capped(MAX_FINDINGS);
    let checked = 0;
    for (const session of ctx.facts.traffic) {
      for (const line of session.garbage) {
        if (line.startsWith(TOO_DEEP))
          fail('too-deep', { session: session.label, text: clip(line.slice(TOO_DEEP.length + 2), 120) });
        else if (line.startsWith(TOO_LARGE))
          fail('too-large', { session: session.label, text: clip(line.slice(TOO_LARGE.length + 2), 120) });
        else fail('not-json-rpc', { session: session.label, text: clip(line, 120) });
      }
      for (const reply of session.strayReplies)
        fail('stray-reply', { session: session.label, reply: clip(reply, 160) });
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
        const index = indexOf.get(ex);
        const issues = index === undefined ? undefined : issuesOf[index];
        if (issues) fail('schema-mismatch', { method: ex.method, era, issues }, { transcript: [ex] });
      }
    }
    done();
    ctx.info('checked', { count: checked, era, sdk: sdkOf(era) });
  },
});

function envelopeProblem(r: Record<string, unknown>, id: unknown): string | undefined {
  if (r.jsonrpc !== '2.0') return `"jsonrpc" is ${JSON.stringify(r.jsonrpc)}, not "2.0"`;
  if (r.id !== id) return `its id ${JSON.stringify(r.id)} does not match the request id ${JSON.stringify(id)}`;
  const hasResult = 'result' in r;
  const hasError = 'error' in r;
  if (hasResult === hasError)
    return hasResult ? 'it has both "result" and "error"' : 'it has neither "result" nor "error"';
  if (hasError) {
    const e = r.error;
    if (!isPlainObject(e)) return '"error" is not an object';
    if (typeof e.code !== 'number' || !Number.isInteger(e.code))
      return `error.code is ${JSON.stringify(e.code)}, not an integer`;
    if (typeof e.message !== 'string') return 'error.message is not a string';
  }
  return undefined;
}
