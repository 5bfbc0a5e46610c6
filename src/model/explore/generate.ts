// The exploration's generator: from the seed, a sequence of situations (situations.ts) over a few
// sessions of its own, each situation once first, then random ones until the budget is spent.
import { sessionsOf, type Move } from './moves.js';
import { NEAR_CALL_KINDS } from '../ops.js';
import { Random } from './random.js';
import { NEAR_KINDS, type NearKind } from './near-names.js';
import {
  BESIDE,
  BETWEEN,
  makeSituation,
  REFUSED_AT,
  TEMPLATES,
  type Beside,
  type Between,
  type GeneratorInput,
  type Sim,
  type Template,
} from './situations.js';

/**
 * Situations made first, from a generator of their own: the seed's other situations come out as they did before them.
 */
const OWN_GENERATOR: ReadonlySet<Template> = new Set(['idle', 'paused', 'reads-together', 'near-call']);
/** The situations that fill the budget once each came: a near-name call comes once per kind, first. */
const FILLERS = TEMPLATES.filter((t) => !OWN_GENERATOR.has(t));

/**
 * What a move weighs on its session: a call 3, another request 1, a pause about as much as the requests that fit in it.
 */
function loadOf(m: Move): number {
  if (m.kind === 'pause') return Math.ceil(m.ms / 25);
  return m.kind === 'call' ? 3 : 1;
}

/**
 * A sequence of about `budget` requests, from the seed: each template once first (near names of
 * every kind), then random ones, over a few sessions of its own. Calls go only to `callable` tools.
 */
export function generate(input: GeneratorInput, rng: Random, budget: number): Generated {
  const moves: Move[] = [];
  const blocks: number[] = [];
  const sim: Sim = { live: new Map(), opened: 0, busy: new Set(), load: new Map(), balanced: false };
  const carry = (m: Move) => {
    for (const n of sessionsOf([m])) sim.load.set(n, (sim.load.get(n) ?? 0) + loadOf(m));
  };
  if (!input.tools.length || budget <= 0) return { moves, blocks };
  // First the situations no check's own requests make (in an order the seed picks), then the rest.
  type Item = { template: Template; near?: NearKind; between?: Between; beside?: Beside };
  const all: Item[] = [
    ...TEMPLATES.filter((t) => t !== 'near-fetch' && !OWN_GENERATOR.has(t) && t !== 'grant-kept' && t !== 'batch').map(
      (template) => ({ template }),
    ),
    ...NEAR_KINDS.map((near) => ({ template: 'near-fetch' as const, near })),
    { template: 'grant-kept' as const },
    ...BESIDE.map((beside) => ({ template: 'batch' as const, beside })),
  ];
  const checksDoIt = (i: Item) =>
    ['other-fetched', 'other-session', 'ended', 'refused-read'].includes(i.template) ||
    i.near === 'case' ||
    (i.template === 'batch' && i.beside !== 'pair');
  // Calls a right server refuses grant nothing, so they go first: they never fill a session up.
  const refusing = (i: Item) => REFUSED_AT.includes(i.template);
  const first = all.filter((i) => !checksDoIt(i));
  const queue: Item[] = [
    ...rng.shuffle(first.filter(refusing)),
    ...rng.shuffle(first.filter((i) => !refusing(i))),
    ...rng.shuffle(all.filter(checksDoIt)),
  ];
  // Calls of near names first (they grant nothing), from a generator of their own: the other
  // situations come from the seed as they did before there were any.
  if (input.readOnly.length)
    queue.unshift(...NEAR_CALL_KINDS.map((near) => ({ template: 'near-call' as const, near })));
  // Two reads of one session in flight together, each granting its own tool.
  if (input.callable.length > 1) queue.unshift({ template: 'reads-together' });
  // A grant kept over the longest pause, first of the live sessions' situations: the pause passes
  // while the others are played (after them, it made the exploration ~0.2 s longer).
  queue.unshift({ template: 'paused' });
  // The idle session first of all: its idleness then passes while everything else is done. It is
  // one session more than the limits (explorationSessions counts it).
  if (input.idleMs !== undefined) {
    queue.unshift({ template: 'idle' });
    input = { ...input, totalSessions: input.totalSessions + 1 };
  }
  const nameRng = new Random((rng.seed ^ 0x9e3779b9) >>> 0);
  let cost = 0;
  let retries = queue.length;
  const tails: Array<readonly [Move, number]> = [];
  for (let guard = 0; cost < budget && guard < budget * 4; guard++) {
    sim.balanced = queue.length === 0;
    const next = queue.shift() ?? { template: rng.pick(FILLERS) };
    const prelude: Move[] = [];
    const later: Move[] = [];
    const own = OWN_GENERATOR.has(next.template) ? nameRng : rng;
    const made = makeSituation(
      next.template,
      {
        near: next.near ?? own.pick(NEAR_KINDS),
        between: next.between ?? own.pick(BETWEEN),
        beside: next.beside ?? own.pick(BESIDE),
      },
      input,
      own,
      sim,
      prelude,
      later,
    );
    for (const m of prelude) {
      moves.push(m);
      carry(m);
      blocks.push(-1);
      cost++;
    }
    if (!made) {
      // Not possible now (every live session holds the tool): once more later, after others.
      if (retries-- > 0) queue.push(next);
      continue;
    }
    // This situation's moves, then what the one before left for later (its pause ran meanwhile).
    for (const [m, block] of [...made.map((m) => [m, guard] as const), ...tails.splice(0)]) {
      moves.push(m);
      carry(m);
      blocks.push(block);
      cost += m.kind === 'together' ? m.moves.length : m.kind === 'pause' ? 0 : 1;
    }
    sim.busy.clear();
    tails.push(...later.map((m) => [m, guard] as const));
    for (const [m] of tails) if (m.kind !== 'together') sim.busy.add(m.session);
  }
  for (const [m, block] of tails) {
    moves.push(m);
    blocks.push(block);
  }
  return { moves, blocks };
}

/**
 * A generated sequence, and for each move the situation (template) it belongs to (-1: a session ended to make room).
 */
export interface Generated {
  moves: Move[];
  blocks: number[];
}
