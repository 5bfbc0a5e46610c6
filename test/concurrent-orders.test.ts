// The judgement of requests in flight together is order-free (DESIGN, "The same verdict every run";
// issue 69): a scripted wire holds the requests a test sends at once and lets the server take and
// answer them in every order. A correct server gets no finding in any order, and a broken one the
// same findings in every order — whichever order the answers came in, nothing else decides them.
// No timer: the order of every send and answer is the order the test releases them in.
import t, { type Test } from 'tap';
import { judge } from '../src/model/judge.js';
import { CRITERION, type World } from '../src/model/world.js';
import { McpSession } from '../src/transport/session.js';
import type { JsonObject, Wire } from '../src/transport/types.js';

const URI = 'resource:///tool_descriptions';
const TOOLS = ['alpha', 'beta', 'gamma'];
/** A read naming more than this is refused (§10.3), as the batch-limit peer of the stability test does. */
const MAX_NAMES = 20;
/** A read the server refuses: the three tools and 18 unknown names. */
const OVERSIZED = [...TOOLS, ...Array.from({ length: 18 }, (_, i) => `no_such_tool_${i}`)];
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
  listing: new Map([['', JSON.stringify(TOOLS.map(listed))]]),
  descriptions: new Map(TOOLS.map((n) => [n, full(n)])),
  schemas: new Map(TOOLS.map((n) => [n, full(n).inputSchema])),
  readOnly: new Set(TOOLS),
};

function listed(name: string) {
  return { name, description: `Looks up ${name} records.`, inputSchema: { type: 'object' } };
}

/** How a server keeps grants: correctly, or with one of the faults the model must see in every order. */
type Fault = 'none' | 'refused-read-grants' | 'listing-clears' | 'one-store';

type Message = JsonObject & { id?: number; method?: string; params?: Record<string, unknown> };

/** A progressive-disclosure server over grant stores (one per session, or one for all with 'one-store'). */
function server(fault: Fault) {
  const shared = new Set<string>();
  return (store: Set<string> = fault === 'one-store' ? shared : new Set()) =>
    (m: Message): JsonObject => {
      const text = (value: unknown) => [{ type: 'text', text: JSON.stringify(value) }];
      if (m.method === 'tools/list') {
        if (fault === 'listing-clears') store.clear();
        return { result: { tools: TOOLS.map(listed) } };
      }
      if (m.method === 'resources/read') {
        const uri = String(m.params?.uri);
        const names = [...new Set((new URL(uri).searchParams.get('tools') ?? '').split(',').filter(Boolean))];
        if (!names.length)
          return {
            result: {
              contents: [
                {
                  uri,
                  mimeType: 'application/json',
                  text: JSON.stringify({
                    error: {
                      code: 'MISSING_TOOL_SELECTION',
                      message: 'Name the tools: ?tools=alpha',
                      examples: [`${URI}?tools=alpha`],
                    },
                  }),
                },
              ],
            },
          };
        if (names.length > MAX_NAMES) {
          if (fault === 'refused-read-grants') for (const n of names) if (TOOLS.includes(n)) store.add(n);
          return {
            error: {
              code: -32602,
              message: `Too many tools: ${names.length}`,
              data: { code: 'TOO_MANY_TOOLS', max: MAX_NAMES },
            },
          };
        }
        const body: Record<string, unknown> = {};
        for (const n of names) {
          if (TOOLS.includes(n)) store.add(n);
          body[n] = TOOLS.includes(n) ? full(n) : { error: `Tool '${n}' not found`, available_tools: TOOLS };
        }
        return { result: { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }] } };
      }
      if (m.method === 'tools/call') {
        const name = String(m.params?.name);
        if (!store.has(name))
          return {
            result: {
              isError: true,
              content: text({
                error: {
                  code: 'TOOL_DESCRIPTION_REQUIRED',
                  message: `Fetch ${name}'s description first.`,
                  resource_uri: `${URI}?tools=${name}`,
                },
              }),
            },
          };
        return { result: { content: text({ id: 'A-1', found: false }) } };
      }
      return { result: {} };
    };
}

/**
 * A wire that answers at once, or — between hold() and answerIn() — keeps what is sent, then lets
 * the server take the kept requests in the order given and answers each as it is taken.
 */
class ScriptedWire implements Wire {
  readonly describe = 'scripted';
  private deliver: (m: JsonObject) => void = () => {};
  private held: Message[] | undefined;

  constructor(private readonly handle: (m: Message) => JsonObject) {}

  async send(message: JsonObject): Promise<void> {
    const m = message as Message;
    if (this.held) this.held.push(m);
    else this.answer(m);
  }

  hold(): void {
    this.held = [];
  }

  /** Takes the kept requests in `order` (indexes in the order they were sent), one answer per turn. */
  async answerIn(order: readonly number[]): Promise<void> {
    const held = this.held ?? [];
    this.held = undefined;
    for (const i of order) {
      this.answer(held[i]);
      await new Promise((done) => setImmediate(done));
    }
  }

  private answer(m: Message): void {
    const reply = this.handle(m);
    queueMicrotask(() => this.deliver({ jsonrpc: '2.0', id: m.id ?? null, ...reply }));
  }

  onMessage(handler: (m: JsonObject) => void): void {
    this.deliver = handler;
  }
  onGarbage(): void {}
  onClose(): void {}
  async close(): Promise<void> {}
  stderrTail(): string[] {
    return [];
  }
}

/** Sends requests while `wire` holds them, then lets the server take them in the order under test. */
type Together = (wire: ScriptedWire, sent: () => Array<Promise<unknown>>) => Promise<void>;

interface Client {
  session: McpSession;
  wire: ScriptedWire;
  read(names: string[]): Promise<unknown>;
  call(name: string): Promise<unknown>;
  list(): Promise<unknown>;
}

function clients(fault: Fault, labels: string[]): Client[] {
  const storeFor = server(fault);
  return labels.map((label) => {
    const wire = new ScriptedWire(storeFor());
    const session = new McpSession(wire, { label, timeoutMs: 60_000 });
    return {
      session,
      wire,
      read: (names) => session.readResource(names.length ? `${URI}?tools=${names.join(',')}` : URI),
      call: (name) => session.callTool(name, {}),
      list: () => session.request('tools/list', {}),
    };
  });
}

/** Every order of 0..n-1. */
function permutations(n: number): number[][] {
  if (n === 1) return [[0]];
  return permutations(n - 1).flatMap((p) =>
    Array.from({ length: n }, (_, i) => [...p.slice(0, i), n - 1, ...p.slice(i)]),
  );
}

/**
 * Runs `scenario` once per order of its requests in flight together (`sent` sends them while the
 * wire holds them; they are then taken in that order) and returns each order's findings. Of many
 * requests, `orders` names the orders tried (all of them would be too many).
 */
async function inEveryOrder(
  fault: Fault,
  labels: string[],
  scenario: (c: Client[], together: Together) => Promise<void>,
  count: number,
  orders = permutations(count),
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const order of orders) {
    const c = clients(fault, labels);
    const together: Together = async (wire, sent) => {
      wire.hold();
      const pending = sent();
      await wire.answerIn(order);
      await Promise.all(pending);
    };
    await scenario(c, together);
    const breaks = judge(
      world,
      c.map((x) => x.session),
    ).breaks.filter((b) => b.level === 'fail');
    out.set(order.join(','), [...new Set(breaks.map((b) => `${b.check} ${b.code}`))].sort());
  }
  return out;
}

function sameEverywhere(t: Test, found: Map<string, string[]>, expected: string[], what: string): void {
  for (const [order, findings] of found) t.same(findings, expected, `${what}, taken in the order ${order}`);
}

// The kinds of requests whose order the model reads: reads (grants), refused reads, missing
// selections, listings, and calls — in one session and across two.
t.test('a read of a tool in flight with a call of it: the call may be answered either way', async (t) => {
  const scenario = async ([a]: Client[], together: Together) => {
    await together(a.wire, () => [a.read(['alpha']), a.call('alpha')]);
    await a.call('beta'); // unfetched: refused
  };
  sameEverywhere(t, await inEveryOrder('none', ['A'], scenario, 2), [], 'a correct server');
});

t.test(
  'a refused read of too many names beside reads that grant, and a call of a tool of both (the batch-limit peer)',
  async (t) => {
    const scenario = async ([a]: Client[], together: Together) => {
      await a.call('beta'); // unfetched: refused (the server gates it)
      await together(a.wire, () => [a.read(OVERSIZED), a.read(['alpha']), a.call('alpha')]);
      await a.call('beta'); // named only by the refused read
    };
    sameEverywhere(t, await inEveryOrder('none', ['A'], scenario, 3), [], 'a correct server');
    sameEverywhere(
      t,
      await inEveryOrder('refused-read-grants', ['A'], scenario, 3),
      [`${CRITERION.grants} refused-read-authorized`],
      'a server whose refused read grants',
    );
  },
);

t.test('two reads in flight together, one refused, then calls', async (t) => {
  const scenario = async ([a]: Client[], together: Together) => {
    await a.call('beta'); // unfetched: refused (the server gates it)
    await together(a.wire, () => [a.read(OVERSIZED), a.read(['alpha'])]);
    await a.call('alpha');
    await a.call('beta');
  };
  sameEverywhere(t, await inEveryOrder('none', ['A'], scenario, 2), [], 'a correct server');
  sameEverywhere(
    t,
    await inEveryOrder('refused-read-grants', ['A'], scenario, 2),
    [`${CRITERION.grants} refused-read-authorized`],
    'a server whose refused read grants',
  );
});

t.test('a missing selection in flight with a read, then the call', async (t) => {
  const scenario = async ([a]: Client[], together: Together) => {
    await together(a.wire, () => [a.read([]), a.read(['alpha']), a.call('alpha')]);
    await a.call('alpha');
    await a.call('beta');
  };
  sameEverywhere(t, await inEveryOrder('none', ['A'], scenario, 3), [], 'a correct server');
});

t.test('a listing in flight with a call of a granted tool', async (t) => {
  const scenario = async ([a]: Client[], together: Together) => {
    await a.read(['alpha']);
    await together(a.wire, () => [a.list(), a.read(['beta']), a.call('alpha')]);
    await a.call('alpha');
  };
  sameEverywhere(t, await inEveryOrder('none', ['A'], scenario, 3), [], 'a correct server');
  sameEverywhere(
    t,
    await inEveryOrder('listing-clears', ['A'], scenario, 3),
    [`${CRITERION.grants} grant-not-kept`],
    'a server whose listing clears grants',
  );
});

t.test(
  'reads in flight together in one session, then a call of what they granted in another that read nothing',
  async (t) => {
    const scenario = async ([a, b]: Client[], together: Together) => {
      await a.call('gamma'); // unfetched: refused in each session (the server gates it)
      await b.call('gamma');
      await together(a.wire, () => [a.read(OVERSIZED), a.read(['alpha'])]);
      await b.call('alpha'); // the other session's grant
      await a.call('alpha');
    };
    sameEverywhere(t, await inEveryOrder('none', ['A', 'B'], scenario, 2), [], 'a correct server');
    sameEverywhere(
      t,
      await inEveryOrder('one-store', ['A', 'B'], scenario, 2),
      [`${CRITERION.isolation} grant-leaked`],
      'a server with one grant store for every session',
    );
  },
);

t.test('more requests in flight together than an order search could try: the call first, or last', async (t) => {
  // What the checks send at once on a server with many tools: a call beside a dozen reads (the old
  // judgement tried every order of up to seven, and took the sent order beyond).
  const reads = (a: Client) => [
    a.read(OVERSIZED),
    ...Array.from({ length: 10 }, (_, i) => a.read([TOOLS[i % 3]])),
    a.read([]),
  ];
  const scenario = async ([a]: Client[], together: Together) => {
    await a.call('beta'); // unfetched: refused
    await together(a.wire, () => [a.call('alpha'), ...reads(a)]);
    await a.call('alpha');
  };
  const sent = Array.from({ length: 13 }, (_, i) => i);
  const orders = [sent, [...sent].reverse(), [...sent.slice(1), 0]];
  sameEverywhere(t, await inEveryOrder('none', ['A'], scenario, 13, orders), [], 'a correct server');
  sameEverywhere(
    t,
    await inEveryOrder('refused-read-grants', ['A'], scenario, 13, orders),
    [],
    'a server whose refused read grants what is granted anyway',
  );
});
