// The model and its exploration, in-process: replay by seed and the small parts (names that resemble
// others, the shrinker, the order of the rules it broke, the generator's coverage); and selection
// across languages.
import t from 'tap';
import { LIVE_CHECKS } from '../checks/index.js';
import { generate } from '../src/model/explore/generate.js';
import { NEAR_KINDS, nearName } from '../src/model/explore/near-names.js';
import { describeMove, type Move } from '../src/model/explore/moves.js';
import { Random } from '../src/model/explore/random.js';
import { shrink } from '../src/model/explore/shrink.js';
import { inMoveOrder } from '../src/model/explore/explore.js';
import type { Exchange } from '../src/transport/types.js';
import { resembled } from '../src/model/ops.js';
import { runInProcess } from './support/check-tester.js';
import { TEST_SEED } from './support/fixtures.js';

const TOOLS = ['list_notes', 'get_note', 'search_notes', 'create_note', 'update_note', 'delete_note'];

t.test('the same seed gives the same findings, byte for byte', async (t) => {
  const { overrides } = (await import('../fixtures/servers/pd-authorization-enforced--prefix-grant.js')) as {
    overrides: object;
  };
  const findings = async () => {
    const report = await runInProcess(LIVE_CHECKS, { reference: overrides }, { seed: TEST_SEED });
    // How long the idle session was idle is a measurement of this run, like its duration.
    const { idleMs, idleHold: _held, ...exploration } = report.exploration ?? {};
    t.type(idleMs, 'number', 'the report says how long the idle session was idle');
    return JSON.stringify({ exploration, findings: report.results.map((r) => [r.id, r.status, r.findings]) });
  };
  const first = await findings();
  t.match(
    first,
    /"sequence":\{"seed":20261123,"steps":\["1\. A reads \?tools=/,
    'the run found the fault and shrank it',
  );
  t.equal(await findings(), first, 'a second run with the seed: identical');
});

t.test("names that resemble a tool's, kind by kind", async (t) => {
  for (const kind of NEAR_KINDS) {
    const name = nearName('get_note', kind, TOOLS);
    t.ok(name && name !== 'get_note', `${kind}: ${JSON.stringify(name)}`);
    t.equal(resembled(name!, TOOLS)?.tool, 'get_note', `${kind}: recognised as resembling get_note`);
  }
  t.equal(resembled('pd_check_no_such_tool', TOOLS), undefined, 'an unrelated name resembles nothing');
});

t.test('the shrinker keeps only the moves that still break the rule', async (t) => {
  const moves: Move[] = TOOLS.map((tool, i) => ({ kind: 'call', session: i % 2, tool }));
  const needed = new Set(['get_note', 'update_note']);
  const out = await shrink(
    moves,
    async (c) => [...needed].every((n) => c.some((m) => m.kind === 'call' && m.tool === n)),
    { replays: 50, until: Infinity },
  );
  t.same(
    out.moves.map((m) => (m as { tool: string }).tool),
    ['get_note', 'update_note'],
  );
});

t.test(
  'the shrinker spends its budget on replays made: candidates the caller answers from memory cost none',
  async (t) => {
    // [fetch, call, pause, call] of a grant used up by its first call: [fetch, call, call] is the answer.
    const moves: Move[] = [
      { kind: 'fetch', session: 0, names: ['get_note'] },
      { kind: 'call', session: 0, tool: 'get_note' },
      { kind: 'pause', session: 0, ms: 30 },
      { kind: 'call', session: 0, tool: 'get_note' },
    ];
    const breaks = (c: Move[]) => c[0]?.kind === 'fetch' && c.filter((m) => m.kind === 'call').length === 2;
    // The halves and two single drops were played before (as targeted candidates): the caller knows them.
    const without = (i: number) => moves.filter((_, j) => j !== i);
    const known = new Map(
      [moves.slice(0, 2), moves.slice(2), without(0), without(1)].map((c) => [JSON.stringify(c), false]),
    );
    let made = 0;
    const stillFails = async (c: Move[]) => known.get(JSON.stringify(c)) ?? (made++, breaks(c));
    const out = await shrink(moves, stillFails, { replays: 2, until: Infinity, made: () => made });
    t.same(
      out.moves.map((m) => m.kind),
      ['fetch', 'call', 'call'],
      'the pause is dropped within two replays made',
    );
    t.ok(made <= 2, `${made} replays made`);
    // Counted as candidates, the two it knew used the budget up: the pause stayed.
    const counted = await shrink(moves, stillFails, { replays: 2, until: Infinity });
    t.equal(counted.moves.length, 4, "without the caller's count, the known halves spend the budget");
  },
);

t.test(
  'the rules the exploration broke are taken in the order of its moves, not of the time they were sent',
  async (t) => {
    // Two sessions' reads broke the same rule; the second move's was sent first (its session was ahead).
    const [a, b] = [{ method: 'resources/read' }, { method: 'resources/read' }] as unknown as Exchange[];
    const brk = (ex: Exchange) => ({
      check: 'pd-full-descriptions',
      code: 'extra-keys',
      args: {},
      level: 'fail' as const,
      proof: [ex],
    });
    const played = { sessions: [], exchanges: [[a], [b]] };
    t.same(
      inMoveOrder(played, [brk(b), brk(a)]).map((x) => x.at),
      [0, 1],
      'the instance at the earlier move first, whichever the judge met first',
    );
  },
);

t.test('every situation and every kind of near name is generated, whatever the seed', async (t) => {
  for (let seed = 1; seed <= 30; seed++) {
    const world = {
      tools: TOOLS,
      toolSet: new Set(TOOLS),
      listed: true,
      listing: new Map(),
      descriptions: new Map(),
      schemas: new Map(),
      readOnly: new Set(TOOLS.slice(0, 3)),
    };
    const { moves } = generate(
      {
        world,
        tools: TOOLS,
        callable: TOOLS.slice(0, 5),
        readOnly: TOOLS.slice(0, 3),
        liveSessions: 3,
        totalSessions: 9,
        maxPauseMs: 200,
        endsMatter: true,
      },
      new Random(seed),
      60,
    );
    const text = moves.map(describeMove).join('\n');
    const near = NEAR_KINDS.filter((kind) =>
      TOOLS.some((tool) => text.includes(`?tools=${JSON.stringify(nearName(tool, kind, TOOLS)).slice(1, -1)}\n`)),
    );
    t.same(near, [...NEAR_KINDS], `seed ${seed}: a near name of each kind`);
    for (const [what, pattern] of [
      ['a pause', /stays idle/],
      ['an end', / ends /],
      ['a listing', /lists the tools/],
      ['a missing selection', /reads the resource (with|without)/],
      ['requests in flight together', /at the same time/],
      ['a read of too many names', /\(101 names\)/],
    ] as const) {
      t.match(text, pattern, `seed ${seed}: ${what}`);
    }
  }
});

t.test(
  'selection: a segmenter finds tools described in Japanese and German; near-duplicates and restated names are named',
  async (t) => {
    const { selectionFigures, selectionProblems } = await import('../src/rules/selection.js');
    const japanese = [
      {
        name: 'list_notes',
        minimal: 'ノートの一覧をタグで絞り込んで表示します。',
        queries: ['タグでノートの一覧を絞り込む'],
      },
      { name: 'get_note', minimal: 'IDを指定してノートの本文を読みます。', queries: ['IDでノートの本文を読む'] },
      { name: 'delete_note', minimal: 'ノートを完全に削除します。', queries: ['ノートを削除する'] },
    ];
    const ja = selectionFigures(japanese);
    t.same(
      ja.tools.map((x) => x.top1),
      [1, 1, 1],
      'every Japanese query ranks its own tool first',
    );
    const german = [
      {
        name: 'notiz_lesen',
        minimal: 'Liest eine Notiz vollständig anhand ihrer ID.',
        queries: ['Notiz anhand der ID lesen'],
      },
      { name: 'notiz_loeschen', minimal: 'Löscht eine Notiz endgültig.', queries: ['Notiz endgültig löschen'] },
    ];
    t.same(
      selectionFigures(german).tools.map((x) => x.top1),
      [1, 1],
      'and every German one',
    );
    const twins = [
      { name: 'a_tool', minimal: 'Finds notes in the notebook.', queries: [] },
      { name: 'b_tool', minimal: 'Finds notes in the notebook.', queries: [] },
      { name: 'get_note', minimal: 'Get the note.', queries: [] },
    ];
    const codes = selectionProblems(twins, selectionFigures(twins)).map((p) => `${p.code}:${p.tool}`);
    t.same(
      codes.sort(),
      ['near-duplicate:a_tool', 'restates-name:get_note'],
      'the twins are named together, the restated name alone',
    );
  },
);
