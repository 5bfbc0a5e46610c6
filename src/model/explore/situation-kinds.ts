// The kinds of situation the exploration makes, what it needs to know of the server to make them,
// and what it simulates while it does (src/model/explore/situations.ts makes each one).
import type { SessionModel, World } from '../world.js';

/** What the generator needs to know of the server. */
export interface GeneratorInput {
  /** What the model knows of the server: grants are foreseen by its own transition. */
  world: World;
  tools: readonly string[];
  /** Tools the call plan lets the exploration call, fetched or not (read-only ones first). */
  callable: readonly string[];
  /**
   * Tools to call where a correct server refuses (not fetched in that session): read-only ones, so
   * that replaying the call while shrinking is always allowed. Empty: `callable` is used.
   */
  readOnly: readonly string[];
  /** Sessions alive at once, at most; and in all (over stdio each is a server process). */
  liveSessions: number;
  totalSessions: number;
  /** Longest pause (ms): long enough for state that expires to show, short enough for a run. */
  maxPauseMs: number;
  /**
   * The idle session: one session's idleness between a fetch and a call, beside the rest of the work (its least length,
   * ms; undefined: no idle session).
   */
  idleMs?: number;
  /** Over HTTP an ended session's id must be answered 404 afterwards. */
  endsMatter: boolean;
}

/** The situations the generator makes, each a few moves; every one comes at least once (in an order the seed picks). */
export const TEMPLATES = [
  'idle',
  'paused',
  'reads-together',
  'near-fetch',
  'near-call',
  'grant-kept',
  'twice-unfetched',
  'other-fetched',
  'batch',
  'in-flight',
  'other-session',
  'ended',
  'listing',
  'missing-then-call',
  'refused-read',
] as const;
export type Template = (typeof TEMPLATES)[number];
/** What comes between a fetch and the next call of the tool: none of it may take the grant away. */
export const BETWEEN = ['missing', 'unknown', 'list', 'call-other', 'pause', 'fetch-other', 'fetch-elsewhere'] as const;
export type Between = (typeof BETWEEN)[number];
/** What goes beside the tool in one ?tools= read: another tool, itself again, an unknown name, a name with a space. */
export const BESIDE = ['pair', 'repeated', 'unknown', 'spaces'] as const;
export type Beside = (typeof BESIDE)[number];

/** Situations whose call a right server refuses (the tool is not fetched in that session). */
export const REFUSED_AT: readonly Template[] = [
  'near-fetch',
  'near-call',
  'twice-unfetched',
  'other-fetched',
  'other-session',
  'ended',
  'missing-then-call',
  'refused-read',
];

/** What would hold after the moves so far, were the server right: each live session's state by the model. */
export interface Sim {
  live: Map<number, SessionModel>;
  opened: number;
  /** Sessions with moves still to come (a pause and its call): never ended to make room. */
  busy: Set<number>;
  /**
   * Requests each session carries so far: situations go to the least loaded, so that sessions run at the same time
   * finish together.
   */
  load: Map<number, number>;
  /**
   * Once every situation came once, random ones fill the budget only where a session is about as
   * loaded as the lightest (sessions that hold every tool would otherwise pile work onto the one that
   * lacks some, and the run waits for it).
   */
  balanced: boolean;
}
