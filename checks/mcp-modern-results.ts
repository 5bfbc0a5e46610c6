import { MODERN_ERA } from '../src/transport/era.js';
import { defineLiveCheck } from '../src/run/check.js';
import { SPARE } from '../src/transport/target.js';
import { isPlainObject } from '../src/protocol/payload.js';
import { clip } from '../src/util/text.js';
import { afterEndOf } from '../src/transport/exchange-times.js';

/** Results a 2026-07-28 client may cache, which MUST carry ttlMs and cacheScope when complete (Caching). */
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);
const SCOPES = ['public', 'private'];

const messages = {
  'no-result-type': {
    message:
      'The {method} result has no resultType{got}: a server of 2026-07-28 MUST say on every result whether it is complete.',
    hint: 'Add "resultType": "complete" to every result (the SDK v2 does; a hand-written handler or proxy may drop it).',
  },
  'no-cache-hints': {
    message: 'The complete {method} result lacks {missing}: 2026-07-28 requires caching hints on it.',
    hint: 'Add "ttlMs" (milliseconds a client may reuse it, 0 for always stale) and "cacheScope" ("public" when it is the same for every caller, else "private").',
  },
  'bad-ttl': {
    message: 'The {method} result says ttlMs {ttl}: it MUST be a number of milliseconds, 0 or more.',
    hint: 'Send "ttlMs": 0 when a client should not reuse the result, or how long it stays fresh.',
  },
  'bad-cache-scope': {
    message: 'The {method} result says cacheScope {scope}: it MUST be "public" or "private".',
    hint: 'Send "cacheScope": "public" for results that hold nothing of the caller, "private" otherwise.',
  },
  'no-server-info': {
    message:
      'server/discover names no server: its _meta has no io.modelcontextprotocol/serverInfo (Discovery: SHOULD).',
    hint: 'Put { "name", "version" } of your server under _meta["io.modelcontextprotocol/serverInfo"] in the server/discover result.',
  },
  checked: '{count|result} of 2026-07-28 checked for resultType and caching hints.',
} as const;

export default defineLiveCheck({
  id: 'mcp-modern-results',
  title:
    'Every 2026-07-28 result says its resultType, cacheable ones carry ttlMs and cacheScope, and server/discover names the server',
  spec: { doc: 'mcp-base', section: '2026-07-28: Result, Caching, Discovery', level: 'MUST', requirements: [] },
  // What it checks is new in 2026-07-28; a 2025 result has none of it.
  eras: [MODERN_ERA],
  needs: 'session',
  reads: ['traffic'],
  sessionUse: 'none: it reads every result the other checks received, so it runs last',
  messages,
  async run(ctx) {
    // One finding per method and fault: a fault of the handler repeats on every call.
    const seen = new Set<string>();
    const once = (key: string, report: () => void) => {
      if (seen.has(key)) return;
      seen.add(key);
      report();
    };
    let checked = 0;
    for (const session of ctx.facts.traffic) {
      for (const ex of session.exchanges) {
        const result = ex.response?.result;
        if (!isPlainObject(result) || afterEndOf(ex) || (ex.era !== undefined && ex.era !== MODERN_ERA)) continue;
        // A spare no check took was started by timing, not by the run's plan: checked, not counted.
        if (session.label !== SPARE) checked++;
        const proof = { transcript: [ex] };
        const type = result.resultType;
        if (typeof type !== 'string')
          once(`type:${ex.method}`, () =>
            ctx.fail(
              'no-result-type',
              { method: ex.method, got: type === undefined ? '' : ` (it says ${clip(JSON.stringify(type), 40)})` },
              proof,
            ),
          );
        // A result without resultType is taken as complete by clients (Result), so it needs the hints too.
        if (CACHEABLE.has(ex.method) && (type === undefined || type === 'complete')) {
          for (const problem of cacheProblems(result))
            once(`${problem.code}:${ex.method}`, () =>
              ctx.fail(problem.code, { method: ex.method, ...problem.args }, proof),
            );
        }
        if (
          ex.method === 'server/discover' &&
          !isPlainObject((result._meta as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/serverInfo'])
        ) {
          once('server-info', () => ctx.warn('no-server-info', {}, proof));
        }
      }
    }
    ctx.info('checked', { count: checked });
  },
});

/** What is wrong with a complete cacheable result's caching hints (Caching: MUST). */
function cacheProblems(
  result: Record<string, unknown>,
): Array<{ code: 'no-cache-hints' | 'bad-ttl' | 'bad-cache-scope'; args: Record<string, string> }> {
  const missing = ['ttlMs', 'cacheScope'].filter((field) => !(field in result));
  if (missing.length) return [{ code: 'no-cache-hints', args: { missing: missing.join(' and ') } }];
  const problems: ReturnType<typeof cacheProblems> = [];
  const ttl = result.ttlMs;
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0)
    problems.push({ code: 'bad-ttl', args: { ttl: clip(JSON.stringify(ttl), 40) } });
  if (!SCOPES.includes(result.cacheScope as string))
    problems.push({ code: 'bad-cache-scope', args: { scope: clip(JSON.stringify(result.cacheScope), 40) } });
  return problems;
}
