// The situations the exploration makes, each a few moves played in sessions of its own: what a
// correct server does in each is what the model foresees (the generator in generate.ts picks them).
import type { Move } from './moves.js';
import { NEAR_CALL_KINDS } from '../ops.js';
import type { Random } from './random.js';
import {
  BETWEEN,
  REFUSED_AT,
  type Beside,
  type Between,
  type GeneratorInput,
  type Sim,
  type Template,
} from './situation-kinds.js';
import { readAsServed } from '../state.js';
import { emptySession } from '../world.js';
import { nearName, type NearKind } from './near-names.js';

/** Names in a read meant to be too many (a server may refuse more than it takes, §10.3). */
const OVERSIZED = 100;

/** How much more than the lightest session a session may carry in the random part (in loadOf's units). */
const SLACK = 4;

/**
 * A live session that lacks `tool`, opening a new one if the limits allow — ending one that holds
 * it to make room, if need be (its end goes into `prelude`) — or undefined.
 */
function lacking(
  tool: string,
  input: GeneratorInput,
  rng: Random,
  sim: Sim,
  not?: number,
  prelude?: Move[],
): number | undefined {
  const candidates = [...sim.live].filter(([n, state]) => n !== not && !state.grants.has(tool)).map(([n]) => n);
  const lightest = () => {
    const least = Math.min(...candidates.map((n) => sim.load.get(n) ?? 0));
    if (sim.balanced && least > Math.min(...[...sim.live.keys()].map((n) => sim.load.get(n) ?? 0)) + SLACK)
      return undefined;
    return rng.pick(candidates.filter((n) => (sim.load.get(n) ?? 0) === least));
  };
  // Up to the live limit, a new session (it carries nothing yet) before a loaded one.
  if (
    candidates.length &&
    (sim.live.size >= input.liveSessions ||
      sim.opened >= input.totalSessions ||
      candidates.some((n) => !sim.load.get(n)))
  )
    return lightest();
  if (sim.opened < input.totalSessions && sim.live.size >= input.liveSessions && prelude) {
    const retired = [...sim.live.keys()].find((n) => n !== not && !sim.busy.has(n));
    if (retired !== undefined) {
      sim.live.delete(retired);
      prelude.push({ kind: 'end', session: retired, terminate: rng.chance(0.5) });
    }
  }
  if (sim.live.size < input.liveSessions && sim.opened < input.totalSessions) {
    const n = sim.opened++;
    sim.live.set(n, emptySession());
    return n;
  }
  return candidates.length ? lightest() : undefined;
}

export function makeSituation(
  template: Template,
  variant: { near: NearKind; between: Between; beside: Beside },
  input: GeneratorInput,
  rng: Random,
  sim: Sim,
  prelude: Move[],
  later: Move[],
): Move[] | undefined {
  const { near } = variant;
  // Where the call is expected to be refused, a read-only tool; where authorized, any callable one.
  const refusedAt = REFUSED_AT.includes(template);
  // A tool some live session lacks, where there is one: sessions fill up with grants as the run goes.
  const lackedIn = (pool: readonly string[]) =>
    pool.filter(
      (t) => [...sim.live.values()].some((state) => !state.grants.has(t)) || sim.opened < input.totalSessions,
    );
  const readOnly = refusedAt ? lackedIn(input.readOnly) : [];
  const pool = readOnly.length ? readOnly : lackedIn(input.callable).length ? lackedIn(input.callable) : input.callable;
  const tool = pool.length ? rng.pick(pool) : undefined;
  const any = rng.pick(input.tools);
  // What a fetch leaves in a session, by the model's transition of a correct server's answer.
  const grant = (s: number, names: string[]) => {
    const state = sim.live.get(s);
    if (state) readAsServed(input.world, state, names);
  };
  switch (template) {
    case 'idle': {
      // A grant lasts for the lifetime of the session (§5.1), idle or not: fetched and called, the
      // session stays idle while the other situations are played, then the tool is called again.
      // A session of its own, never live for the others: nothing else goes to it while it waits,
      // and nothing waits for it.
      if (!tool) return undefined;
      const s = sim.opened++;
      const call: Move = { kind: 'call', session: s, tool };
      later.push({ kind: 'pause', session: s, ms: input.idleMs!, idle: true }, call);
      return [{ kind: 'fetch', session: s, names: [tool] }, call];
    }
    case 'reads-together': {
      // Reads in flight together in one session each grant their own tool: a grant store that is
      // read, changed and written back per request loses one (§5.1); both tools are then called.
      const pair = rng.shuffle(input.callable).slice(0, 2);
      if (pair.length < 2) return undefined;
      const s = lacking(pair[0], input, rng, sim, undefined, prelude);
      if (s === undefined || sim.live.get(s)?.grants.has(pair[1])) return undefined;
      grant(s, pair);
      return [
        { kind: 'together', moves: pair.map((tool) => ({ kind: 'fetch' as const, session: s, names: [tool] })) },
        ...pair.map((tool) => ({ kind: 'call' as const, session: s, tool })),
      ];
    }
    case 'near-call': {
      // A call of a name that resembles a read-only tool's, in a session that lacks the tool: a
      // right server answers it as an unknown tool (§4.3: names match exactly).
      const target = input.readOnly.includes(tool ?? '')
        ? tool!
        : input.readOnly.length
          ? rng.pick(input.readOnly)
          : undefined;
      if (target === undefined || !(NEAR_CALL_KINDS as readonly string[]).includes(near)) return undefined;
      const name = nearName(target, near, input.tools);
      const s = name === undefined ? undefined : lacking(target, input, rng, sim, undefined, prelude);
      return s === undefined || name === undefined ? undefined : [{ kind: 'call', session: s, tool: name }];
    }
    case 'near-fetch': {
      // A fetch of a name that resembles a tool's grants nothing; the tool stays refused.
      const target = tool ?? any;
      const name = nearName(target, near, input.tools);
      const s = name === undefined ? undefined : lacking(target, input, rng, sim, undefined, prelude);
      if (s === undefined || name === undefined) return undefined;
      if (near === 'spaces') grant(s, [name]);
      return tool
        ? [
            { kind: 'fetch', session: s, names: [name] },
            { kind: 'call', session: s, tool },
          ]
        : [{ kind: 'fetch', session: s, names: [name] }];
    }
    case 'paused': {
      // A grant outlasts time while its session lives (§5.1): fetched, then the longest pause, then
      // called. The pause and the call wait for the next situation; other sessions work meanwhile.
      if (!tool) return undefined;
      const s = lacking(tool, input, rng, sim, undefined, prelude);
      if (s === undefined) return undefined;
      grant(s, [tool]);
      const call: Move = { kind: 'call', session: s, tool };
      later.push({ kind: 'pause', session: s, ms: input.maxPauseMs }, call);
      return [{ kind: 'fetch', session: s, names: [tool] }];
    }
    case 'grant-kept': {
      // A grant outlasts whatever the session does next: other requests, other names, another
      // session's fetch (time: 'paused'). All of them in turn (the seed picks the order), then the
      // tool is called again: shrinking finds the one that took the grant away.
      if (!tool) return undefined;
      const s = lacking(tool, input, rng, sim, undefined, prelude);
      if (s === undefined) return undefined;
      grant(s, [tool]);
      const other = rng.pick(input.tools.filter((t) => t !== tool).concat(tool));
      // The least loaded other session: one in a long pause would hold the situation up.
      const elsewhere = [...sim.live.keys()]
        .filter((n) => n !== s)
        .sort((a, b) => (sim.load.get(a) ?? 0) - (sim.load.get(b) ?? 0))[0];
      const choices: Record<Between, Move | undefined> = {
        missing: { kind: 'missing', session: s, empty: rng.chance(0.5) },
        unknown: { kind: 'fetch', session: s, names: ['pd_check_no_such_tool'] },
        list: { kind: 'list', session: s },
        'call-other': { kind: 'call', session: s, tool: rng.pick(input.callable) },
        pause: undefined, // time: the 'paused' situation
        'fetch-other': { kind: 'fetch', session: s, names: [other] },
        // Another session fetches: a grant of this one must not lapse for it.
        'fetch-elsewhere': elsewhere === undefined ? undefined : { kind: 'fetch', session: elsewhere, names: [other] },
      };
      if (elsewhere !== undefined) grant(elsewhere, [other]);
      grant(s, [other]);
      const call: Move = { kind: 'call', session: s, tool };
      const steps: Move[] = [{ kind: 'fetch', session: s, names: [tool] }, call];
      for (const kind of rng.shuffle(BETWEEN)) {
        const between = choices[kind];
        if (between) steps.push(between);
      }
      steps.push(call);
      return steps;
    }
    case 'twice-unfetched': {
      // A refusal neither grants nor is used up: the second unfetched call is refused too.
      if (!tool) return undefined;
      const s = lacking(tool, input, rng, sim, undefined, prelude);
      return s === undefined
        ? undefined
        : [
            { kind: 'call', session: s, tool },
            { kind: 'call', session: s, tool },
          ];
    }
    case 'other-fetched': {
      // Fetching one tool authorizes that one only, however alike the names.
      if (!tool) return undefined;
      const others = input.tools.filter((t) => t !== tool);
      if (!others.length) return undefined;
      const alike = others.filter((t) => t.slice(0, 3) === tool.slice(0, 3) || t.slice(-4) === tool.slice(-4));
      const other = rng.pick(alike.length ? alike : others);
      const s = lacking(tool, input, rng, sim, undefined, prelude);
      if (s === undefined) return undefined;
      grant(s, [other]);
      return [
        { kind: 'fetch', session: s, names: [other] },
        { kind: 'call', session: s, tool },
      ];
    }
    case 'batch': {
      // ?tools=a,b grants both; a repeated name counts once; an unknown name spoils nothing.
      if (!tool) return undefined;
      const s = lacking(tool, input, rng, sim, undefined, prelude);
      if (s === undefined) return undefined;
      const partner =
        input.callable.find((t) => t !== tool && !sim.live.get(s)?.grants.has(t)) ??
        input.tools.find((t) => t !== tool);
      const second = {
        pair: partner ?? tool,
        repeated: tool,
        unknown: 'pd_check_no_such_tool',
        spaces: ` ${partner ?? tool}`,
      }[variant.beside];
      const names = rng.chance(0.5) ? [tool, second] : [second, tool];
      grant(s, names);
      const calls: Move[] = [{ kind: 'call', session: s, tool }];
      if (variant.beside === 'pair' && second !== tool && input.callable.includes(second))
        calls.push({ kind: 'call', session: s, tool: second });
      return [{ kind: 'fetch', session: s, names }, ...calls];
    }
    case 'in-flight': {
      // A fetch and a call in flight together may take effect in either order; afterwards the grant holds.
      if (!tool) return undefined;
      const s = lacking(tool, input, rng, sim, undefined, prelude);
      if (s === undefined) return undefined;
      grant(s, [tool]);
      return [
        {
          kind: 'together',
          moves: [
            { kind: 'fetch', session: s, names: [tool] },
            { kind: 'call', session: s, tool },
          ],
        },
        { kind: 'call', session: s, tool },
      ];
    }
    case 'other-session': {
      // A grant belongs to the session that fetched: another session, alongside, is refused.
      if (!tool) return undefined;
      const a = lacking(tool, input, rng, sim, undefined, prelude);
      const b = a === undefined ? undefined : lacking(tool, input, rng, sim, a);
      if (a === undefined || b === undefined) return undefined;
      grant(a, [tool]);
      const fetchThenCall: Move[] = [
        { kind: 'fetch', session: a, names: [tool] },
        { kind: 'call', session: b, tool },
      ];
      return rng.chance(0.5)
        ? fetchThenCall
        : [
            fetchThenCall[0],
            {
              kind: 'together',
              moves: [
                { kind: 'call', session: a, tool },
                { kind: 'call', session: b, tool },
              ],
            },
          ];
    }
    case 'ended': {
      // An ended session's grants are gone: a session started after it has none.
      if (!tool || sim.opened >= input.totalSessions) return undefined;
      const a = lacking(tool, input, rng, sim, undefined, prelude);
      if (a === undefined || sim.busy.has(a)) return undefined;
      grant(a, [tool]);
      sim.live.delete(a);
      const b = lacking(tool, input, rng, sim, a);
      if (b === undefined) return undefined;
      const out: Move[] = [
        { kind: 'fetch', session: a, names: [tool] },
        { kind: 'end', session: a, terminate: rng.chance(0.5) || input.endsMatter },
      ];
      return [...out, { kind: 'call', session: b, tool }];
    }
    case 'listing': {
      // tools/list is the same minimal list in every state.
      const s = lacking(any, input, rng, sim, undefined, prelude);
      if (s === undefined) return undefined;
      grant(s, [any]);
      return [
        { kind: 'fetch', session: s, names: [any] },
        { kind: 'list', session: s },
      ];
    }
    case 'refused-read': {
      // A read of more names than a server must take (§10.3) may be refused; refused, it grants nothing.
      if (!tool) return undefined;
      const s = lacking(tool, input, rng, sim, undefined, prelude);
      if (s === undefined) return undefined;
      const names = [tool, ...Array.from({ length: OVERSIZED }, (_, k) => `pd_check_no_such_tool_${k + 1}`)];
      return [
        { kind: 'fetch', session: s, names },
        { kind: 'call', session: s, tool },
      ];
    }
    case 'missing-then-call': {
      // A read without a selection grants nothing.
      if (!tool) return undefined;
      const s = lacking(tool, input, rng, sim, undefined, prelude);
      return s === undefined
        ? undefined
        : [
            { kind: 'missing', session: s, empty: rng.chance(0.5) },
            { kind: 'call', session: s, tool },
          ];
    }
  }
}

export {
  BESIDE,
  BETWEEN,
  REFUSED_AT,
  TEMPLATES,
  type Beside,
  type Between,
  type GeneratorInput,
  type Sim,
  type Template,
} from './situation-kinds.js';
