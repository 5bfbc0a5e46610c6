import type { Fact } from '../core/check.js';

/** The phases of a live run, in the order they run. */
export type PhaseId =
  | 'probe'
  | 'unfetched-read-only'
  | 'descriptions'
  | 'unfetched-others'
  | 'checks'
  | 'end-of-checks'
  | 'exploration'
  | 'traffic'
  | 'judgement';

/** What decides whether a phase runs: the facts the selected checks read, and the exploration's budget. */
export interface PhaseSelection {
  reads: ReadonlySet<Fact>;
  /** Whether the exploration runs (a budget, and a criterion among the checks). */
  explores: boolean;
}

export interface Phase {
  id: PhaseId;
  /** What it does, in a line (for --explain-plan and the design notes). */
  what: string;
  /**
   * The sessions it works in ('S0' the probe, 'C' the clean session), or 'own' for the checks' and the exploration's.
   */
  sessions: readonly ('S0' | 'C' | 'own')[];
  /** The fact it completes (a check that reads it starts once it is there). */
  produces?: Fact;
  /** Whether it runs for this selection. */
  runs(selection: PhaseSelection): boolean;
  /** It starts when that phase starts (it depends on nothing it does), and is awaited in its own place. */
  alongside?: PhaseId;
  /**
   * It only sends requests: once the run's time (--max-duration) is up it does not start. The
   * others still run then, to say what was cut (the checks end by their own limits, the model
   * judges what was said, the traffic checks say they did not run).
   */
  onlySends?: true;
}

const always = () => true;
const needsUnfetched = (s: PhaseSelection) => s.reads.has('unfetched-calls');
const needsDescriptions = (s: PhaseSelection) =>
  s.reads.has('descriptions') || s.reads.has('unfetched-calls') || s.explores;

/**
 * The run as data: the runner carries these out in this order, and the session plan
 * (`--explain-plan`) lays its sessions out from them. Each phase produces frozen facts; a check
 * declares the facts it reads and starts as soon as they exist (so checks that read only the
 * discovery start while the calls before any fetch are still running), and checks that do not
 * depend on each other run at the same time.
 */
export const PHASES: readonly Phase[] = [
  {
    id: 'probe',
    produces: 'discovery',
    sessions: ['S0'],
    runs: always,
    what: 'initialize, tools/list and resources/list: what the server is',
  },
  {
    id: 'unfetched-read-only',
    sessions: ['C'],
    runs: needsUnfetched,
    onlySends: true,
    what: 'read-only tools called before anything is fetched anywhere in the run: a refusal then shows the server enforces descriptions at all',
  },
  {
    id: 'descriptions',
    produces: 'descriptions',
    sessions: ['S0'],
    runs: needsDescriptions,
    onlySends: true,
    what: "the resource found (listed, else a refusal's resource_uri, else the spec's default) and every full description fetched once",
  },
  {
    id: 'unfetched-others',
    produces: 'unfetched-calls',
    sessions: ['C'],
    runs: needsUnfetched,
    onlySends: true,
    what: 'the tools that are not read-only called with arguments their full schema refuses, one at a time; the first tool called once more',
  },
  {
    id: 'checks',
    sessions: ['own'],
    runs: always,
    what: 'every check, each as soon as the facts it reads exist, independent ones at the same time',
  },
  {
    id: 'end-of-checks',
    sessions: ['own'],
    runs: always,
    what: 'work the checks left for the end of the run (a grant called once more, a session started after others ended)',
  },
  {
    id: 'exploration',
    sessions: ['own'],
    runs: (s) => s.explores,
    alongside: 'checks',
    what: 'sequences of operations generated from the seed, in sessions of its own at the same time as the checks; judged by the model once they are done',
  },
  {
    id: 'traffic',
    produces: 'traffic',
    sessions: [],
    runs: always,
    what: 'the checks that read every exchange of the run',
  },
  {
    id: 'judgement',
    sessions: ['own'],
    runs: always,
    what: 'every exchange judged by the model; a broken rule becomes a finding of the check that owns it, shrunk to its shortest sequence',
  },
];

/** The phases that run for a selection, in order. */
export function phasesFor(selection: PhaseSelection): Phase[] {
  return PHASES.filter((p) => p.runs(selection));
}
