// The model across two runs against one server (the protocol eras): what the first run's sessions
// leave behind explains a call of the second that ran unfetched, in the order things happened.
// Sessions speak to an in-process server through a wire that answers each request as it is sent,
// so the order of every send and answer is the order of the awaits below (no timer decides it).
import t from 'tap';
import { progressiveServer, type Message } from '../fixtures/hostile/raw-server.js';
import { judge } from '../src/model/judge.js';
import { CRITERION, type World } from '../src/model/world.js';
import { McpSession } from '../src/transport/session.js';
import type { JsonObject, Wire } from '../src/transport/types.js';

const TOOL = 'list_notes';
const FULL = {
  name: TOOL,
  description: 'Lists every note, newest first.',
  inputSchema: { type: 'object', additionalProperties: true },
};
const URI = 'resource:///tool_descriptions';

const world: World = {
  tools: [TOOL],
  toolSet: new Set([TOOL]),
  resource: URI,
  listed: true,
  listing: new Map(),
  descriptions: new Map([[TOOL, FULL]]),
  schemas: new Map([[TOOL, FULL.inputSchema]]),
  readOnly: new Set(),
};

/** A wire to `server` that answers each request as soon as it is sent. */
function wireTo(server: (m: Message) => unknown): Wire {
  let deliver: (m: JsonObject) => void = () => {};
  return {
    describe: 'in-process',
    send: async (m) => {
      const reply = server(m) as JsonObject | undefined;
      if (reply) queueMicrotask(() => deliver({ jsonrpc: '2.0', id: m.id ?? null, ...reply }));
    },
    onMessage: (h) => void (deliver = h),
    onGarbage: () => {},
    onClose: () => {},
    close: async () => {},
    stderrTail: () => [],
  };
}

t.test(
  'a grant of the earlier run counts from the read that first gave it, not from a later read of the same tool',
  async (t) => {
    // One grant store for every session (as a server keeping grants in a database would).
    const server = progressiveServer([{ name: TOOL, description: 'Lists notes.' }], [FULL]);
    const session = (label: string) => new McpSession(wireTo(server), { label, timeoutMs: 60_000 });
    const earlier = session('A');
    const later = session('B');
    const call = (s: McpSession) => s.request('tools/call', { name: TOOL, arguments: {} });
    const read = (s: McpSession) => s.request('resources/read', { uri: `${URI}?tools=${TOOL}` });

    await call(earlier); // refused: the server gates the tool
    await read(earlier); // A holds the grant from here on
    const ran = await call(later); // B never read it, and it runs: A's grant, shared
    await read(earlier); // A reads it again, after B's call was answered
    t.notOk((ran.response?.result as { isError?: boolean }).isError, "the later session's unfetched call ran");

    const first = judge(world, [earlier]);
    const second = judge(world, [later], undefined, first.leftBehind);
    const breaks = second.breaks.filter((b) => b.tool === TOOL).map((b) => `${b.check} ${b.code}`);
    t.same(
      breaks,
      [`${CRITERION.isolation} grant-leaked`],
      "criterion 8: A's grant crossed to B (not criterion 7: A held it before B's call)",
    );
    t.same(second.breaks.find((b) => b.code === 'grant-leaked')?.args, { session: 'B', tool: TOOL, owners: ['A'] });
  },
);

t.test(
  'a call refused on a connection that never held the grant is a grant not kept for the session (6), never sessions mixed up (8)',
  async (t) => {
    // Grants by connection (a server that takes a keep-alive connection for a client): one store per
    // connection. The test says which connection each request goes on, and which store answers it.
    const stores = [0, 1, 2].map(() => progressiveServer([{ name: TOOL, description: 'Lists notes.' }], [FULL]));
    const connected = (label: string) => {
      let onConnection: (id: unknown, connection: number) => void = () => {};
      const route = { connection: 0, store: 0 };
      const wire = {
        ...wireTo((m) => (onConnection(m.id, route.connection), stores[route.store](m))),
        onConnection: (h: typeof onConnection) => void (onConnection = h),
      };
      return { session: new McpSession(wire, { label, timeoutMs: 60_000 }), route };
    };
    const judged = async (refusedOn: { connection: number; store: number }) => {
      for (const store of stores) store.forget();
      const a = connected('A');
      const b = connected('B');
      const on = (c: { route: { connection: number; store: number } }, connection: number, store = connection) =>
        Object.assign(c.route, { connection, store });
      on(a, 0);
      await a.session.request('resources/read', { uri: `${URI}?tools=${TOOL}` });
      await a.session.request('tools/call', { name: TOOL, arguments: {} }); // it works there
      // Beside another session's request, A's call goes on another connection, and is refused.
      on(a, refusedOn.connection, refusedOn.store);
      const [refused] = await Promise.all([
        a.session.request('tools/call', { name: TOOL, arguments: {} }),
        b.session.request('tools/list'),
      ]);
      t.equal((refused.response?.result as { isError?: boolean }).isError, true, 'refused');
      on(a, 0);
      await a.session.request('tools/call', { name: TOOL, arguments: {} }); // back on the fetch's connection, it works
      return judge(world, [a.session, b.session])
        .breaks.filter((x) => x.tool === TOOL)
        .map((x) => `${x.check} ${x.code}`);
    };
    t.same(
      await judged({ connection: 1, store: 1 }),
      [`${CRITERION.grants} grant-not-kept`],
      'refused on a connection that never held it: kept by connection',
    );
    // The same connection that held the grant refusing it (another session's state taken for this one's):
    t.same(
      await judged({ connection: 0, store: 2 }),
      [`${CRITERION.isolation} own-grant-refused`],
      'refused on the connection that held it: sessions mixed up',
    );
  },
);
