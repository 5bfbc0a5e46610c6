// Whose rule a call that ran unfetched broke, after a refusal of the same tool in its session
// (src/model/attribution.ts): a refusal that did not hold (7), or another session's grant that
// crossed over (8). The same sequence tells them apart by what else the session shows: on a server
// that keeps grants by connection, the session's other refusals hold, and only the tool another
// session fetched on the shared connection runs; on one whose refusals lapse, every second call runs.
// Sessions speak to in-process servers that answer at once: the order is the order of the awaits.
import t from 'tap';
import { judge } from '../src/model/judge.js';
import { CRITERION, type World } from '../src/model/world.js';
import { McpSession } from '../src/transport/session.js';
import type { JsonObject, Wire } from '../src/transport/types.js';

const URI = 'resource:///tool_descriptions';
const TOOLS = ['alpha', 'beta'];
const full = (name: string) => ({
  name,
  description: `Looks up ${name} records by id.`,
  inputSchema: { type: 'object', additionalProperties: true },
});
const world: World = {
  tools: TOOLS,
  toolSet: new Set(TOOLS),
  resource: URI,
  listed: true,
  listing: new Map(),
  descriptions: new Map(TOOLS.map((n) => [n, full(n)])),
  schemas: new Map(TOOLS.map((n) => [n, full(n).inputSchema])),
  readOnly: new Set(TOOLS),
};

type Message = JsonObject & { id?: number; method?: string; params?: Record<string, unknown> };
/** Whether a call of `tool` runs, given what the call's store holds and what was refused there before. */
type Gate = (store: Set<string>, refused: Set<string>, tool: string) => boolean;

/** A server whose grants and refusals live in `store`/`refused` (one per session, or one per connection). */
function serverOn(store: Set<string>, refused: Set<string>, gate: Gate) {
  return (m: Message): JsonObject => {
    const text = (value: unknown) => [{ type: 'text', text: JSON.stringify(value) }];
    if (m.method === 'resources/read') {
      const uri = String(m.params?.uri);
      const names = (new URL(uri).searchParams.get('tools') ?? '').split(',').filter(Boolean);
      for (const n of names) store.add(n);
      return {
        result: {
          contents: [
            {
              uri,
              mimeType: 'application/json',
              text: JSON.stringify(Object.fromEntries(names.map((n) => [n, full(n)]))),
            },
          ],
        },
      };
    }
    const name = String(m.params?.name);
    if (gate(store, refused, name)) return { result: { content: text({ found: false }) } };
    refused.add(name);
    return {
      result: {
        isError: true,
        content: text({
          error: {
            code: 'TOOL_DESCRIPTION_REQUIRED',
            message: `Fetch ${name} first.`,
            resource_uri: `${URI}?tools=${name}`,
          },
        }),
      },
    };
  };
}

function wireTo(handle: () => (m: Message) => JsonObject): Wire {
  let deliver: (m: JsonObject) => void = () => {};
  return {
    describe: 'in-process',
    send: async (m) => {
      const reply = handle()(m);
      queueMicrotask(() => deliver({ jsonrpc: '2.0', id: m.id ?? null, ...reply }));
    },
    onMessage: (h) => void (deliver = h),
    onGarbage: () => {},
    onClose: () => {},
    close: async () => {},
    stderrTail: () => [],
  };
}

/**
 * The clean session C is refused both tools; then session S fetches alpha, on C's connection when
 * `shared`; then C calls both tools again. Returns the fail-level findings about C's calls.
 */
async function judged(gate: Gate, byConnection: boolean): Promise<string[]> {
  const connection = { store: new Set<string>(), refused: new Set<string>() };
  const own = () => ({ store: new Set<string>(), refused: new Set<string>() });
  const [c, s] = [own(), own()];
  // By connection: C's requests and S's go on one socket, whose store is the connection's.
  const on = (mine: typeof c) => () =>
    byConnection ? serverOn(connection.store, connection.refused, gate) : serverOn(mine.store, mine.refused, gate);
  const clean = new McpSession(wireTo(on(c)), { label: 'C', timeoutMs: 60_000 });
  const other = new McpSession(wireTo(on(s)), { label: 'S', timeoutMs: 60_000 });
  for (const tool of TOOLS) await clean.callTool(tool, {});
  await other.readResource(`${URI}?tools=alpha`);
  await other.callTool('alpha', {});
  for (const tool of TOOLS) await clean.callTool(tool, {});
  return judge(world, [clean, other])
    .breaks.filter((b) => b.level === 'fail')
    .map((b) => `${b.check} ${b.code} ${b.tool}`)
    .sort();
}

t.test(
  "grants kept by connection: after its refusals held, the other session's grant on the shared connection let the call through (8)",
  async (t) => {
    const byStore: Gate = (store, _refused, tool) => store.has(tool);
    t.same(
      await judged(byStore, true),
      [`${CRITERION.isolation} grant-leaked alpha`],
      "beta is refused again (refusals hold); alpha runs: S's grant crossed",
    );
    t.same(await judged(byStore, false), [], 'a session per store: nothing crosses');
  },
);

t.test('refusals that lapse: every second call runs, whoever holds the tool (7)', async (t) => {
  const refusesOnce: Gate = (store, refused, tool) => store.has(tool) || refused.has(tool);
  t.same(
    await judged(refusesOnce, false),
    [`${CRITERION.refusal} ran-unfetched alpha`, `${CRITERION.refusal} ran-unfetched beta`],
    'both second calls ran: refusals do not hold',
  );
});
