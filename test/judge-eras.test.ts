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
const FULL = { name: TOOL, description: 'Lists every note, newest first.', inputSchema: { type: 'object', additionalProperties: true } };
const URI = 'resource:///tool_descriptions';

const world: World = {
  tools: [TOOL], toolSet: new Set([TOOL]), resource: URI, listed: true, listing: new Map(),
  descriptions: new Map([[TOOL, FULL]]), schemas: new Map([[TOOL, FULL.inputSchema]]), readOnly: new Set(),
};

/** A wire to `server` that answers each request as soon as it is sent. */
function wireTo(server: (m: Message) => unknown): Wire {
  let deliver: (m: JsonObject) => void = () => {};
  return {
    describe: 'in-process',
    send: async (m) => {
      const reply = server(m as Message) as JsonObject | undefined;
      if (reply) queueMicrotask(() => deliver({ jsonrpc: '2.0', id: m.id ?? null, ...reply }));
    },
    onMessage: (h) => void (deliver = h),
    onGarbage: () => {},
    onClose: () => {},
    close: async () => {},
    stderrTail: () => [],
  };
}

t.test('a grant of the earlier run counts from the read that first gave it, not from a later read of the same tool', async (t) => {
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
  t.notOk((ran.response?.result as { isError?: boolean }).isError, 'the later session\'s unfetched call ran');

  const first = judge(world, [earlier]);
  const second = judge(world, [later], undefined, first.leftBehind);
  const breaks = second.breaks.filter((b) => b.tool === TOOL).map((b) => `${b.check} ${b.code}`);
  t.same(breaks, [`${CRITERION.isolation} grant-leaked`], 'criterion 8: A\'s grant crossed to B (not criterion 7: A held it before B\'s call)');
  t.same(second.breaks.find((b) => b.code === 'grant-leaked')?.args, { session: 'B', tool: TOOL, owners: ['A'] });
});
