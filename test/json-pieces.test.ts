// A fleet's JSON is written in pieces (a merged sweep is tens of MB): joined, they must be what
// JSON.stringify(value, null, 2) writes, at every depth they are cut at.
import t from 'tap';
import { jsonPieces } from '../src/util/json-pieces.js';

const values: unknown[] = [
  { a: 1, b: 'two', c: [1, 2, { d: null }], e: {}, f: [], g: { h: { i: { j: [[], [{}], 'k'] } } } },
  [undefined, () => 1, Symbol('s'), 'x'],
  { skipped: undefined, fn: () => 1, kept: 'yes', at: new Date(0), nested: { only: undefined } },
  { 'a "quoted"\nkey': 'value — with ≈ non-ASCII and \u2028 separators', __proto__: { x: 1 } },
  'a string',
  42,
  null,
  true,
  [],
  {},
  {
    results: Array.from({ length: 5 }, (_, i) => ({
      id: `check-${i}`,
      findings: [{ code: 'c', args: { n: i } }],
      transcript: [],
    })),
  },
];

t.test('joined pieces are JSON.stringify(value, null, 2) at every level and cut depth', async (t) => {
  for (const [n, value] of values.entries()) {
    for (const level of [0, 1, 2, 3]) {
      for (const depth of [0, 1, 2, 3, 6]) {
        // At `level`, every line but the first (whose indent is the caller's) is indented 2 × level more.
        const expected = JSON.stringify(value, null, 2)
          .split('\n')
          .join(`\n${'  '.repeat(level)}`);
        t.equal(
          [...jsonPieces(value, level, depth)].join(''),
          expected,
          `value ${n}, level ${level}, cut ${depth} deep`,
        );
      }
    }
  }
  const keyed = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1}') as unknown;
  t.equal([...jsonPieces(keyed, 0, 3)].join(''), JSON.stringify(keyed, null, 2), 'a parsed __proto__ key is a key');
});
