import type { Fact } from '../core/check.js';
import type { McpSession } from '../transport/session.js';
import type { OpenOptions, Target } from '../transport/target.js';
import { CRITERION, type RuleBreak, type World } from '../model/world.js';
import { MODERN_ERA } from '../transport/era.js';
import { grantInFlight, SessionStates } from '../model/state.js';
import { ExplorationMarks } from '../model/explore/marks.js';
import { CallDoor } from './call-door.js';
import type { CallMemory } from './call-ledger.js';
import type { Discovery } from './discovery.js';
import type { Descriptions, RunFacts, UnfetchedCalls } from './facts.js';
import type { RunSettings } from './options.js';
import { ToolFacts } from './tools.js';
import { worldOf } from './world.js';
import type { SharedSession } from './shared-session.js';

/** Who the clean session says it is where that can matter (HTTP: sessions of one process). */
const CLEAN_CLIENT = { name: 'mcp-pd-check-clean-session', version: '1' };

/**
 * What the phases and checks of one live run share, owned by the run (never by a check): the
 * target and its sessions (the probe, the clean session, labels), the facts as phases produce
 * them (each once, frozen), the model's view of every session, and the one door for calls.
 */
/** The criteria that need a session: grants (6), refusals (7), isolation (8). */
export const SESSION_CRITERIA: readonly string[] = [CRITERION.grants, CRITERION.refusal, CRITERION.isolation];
/** The tool form's rules about grants (a read through it authorizes as the resource's does). */
const TOOL_FORM_GRANT_RULES: readonly string[] = ['grants-more', 'grants-less'];

export class Run {
  /** The era was seen sessionless once the calls before any fetch were done (see sessionless()). */
  private saidSessionless = false;
  readonly door: CallDoor;
  readonly marks = new ExplorationMarks();
  private readonly states = new SessionStates();
  private readonly produced = new Map<Fact, unknown>();
  private readonly waiting = new Map<Fact, { promise: Promise<unknown>; resolve: (v: unknown) => void }>();
  private toolFacts: ToolFacts;
  private currentWorld: World;
  private labels = 0;
  private clean: Promise<McpSession> | undefined;
  /** Why the clean session could not be opened, once that happened (said by the checks that needed it). */
  cleanProblem: Error | undefined;

  /**
   * `memory`: what the calls of another protocol era's run of the same server taught (shared).
   * `shared`: the session the checks with a turn take one after the other, where they share one.
   */
  constructor(
    readonly target: Target,
    readonly plan: RunSettings,
    readonly probe: McpSession,
    readonly discovery: Discovery,
    memory?: CallMemory,
    readonly shared?: SharedSession,
  ) {
    this.toolFacts = new ToolFacts(discovery, undefined, plan.calls);
    this.currentWorld = worldOf(discovery);
    this.door = new CallDoor(
      {
        tools: () => this.toolFacts,
        granted: (session, tool) => this.states.of(this.currentWorld, session).grants.has(tool),
        grantInFlight: (session, tool) => grantInFlight(session, tool, this.currentWorld.descriptionsTool),
        calls: plan.calls,
      },
      memory,
    );
    this.produce('discovery', discovery);
  }

  /** Records a fact once; whoever waits for it goes on. */
  produce<F extends Exclude<Fact, 'traffic'>>(
    fact: F,
    value: RunFacts[F extends 'unfetched-calls' ? 'unfetched' : F],
  ): void {
    if (this.produced.has(fact)) throw new Error(`the fact '${fact}' was produced twice`);
    this.produced.set(fact, value);
    if (fact === 'descriptions') {
      const descriptions = value as Descriptions;
      this.toolFacts = this.toolFacts.withDescriptions(descriptions.full);
      this.currentWorld = worldOf(this.discovery, descriptions);
    }
    this.waiting.get(fact)?.resolve(value);
  }

  /** Waits until a phase has produced the fact. */
  ready(fact: Fact): Promise<unknown> {
    if (fact === 'traffic' || this.produced.has(fact)) return Promise.resolve(this.produced.get(fact));
    let entry = this.waiting.get(fact);
    if (!entry) {
      let resolve!: (v: unknown) => void;
      const promise = new Promise<unknown>((r) => (resolve = r));
      entry = { promise, resolve };
      this.waiting.set(fact, entry);
    }
    return entry.promise;
  }

  has(fact: Fact): boolean {
    return this.produced.has(fact);
  }

  get unfetched(): UnfetchedCalls | undefined {
    return this.produced.get('unfetched-calls') as UnfetchedCalls | undefined;
  }

  get descriptions(): Descriptions | undefined {
    return this.produced.get('descriptions') as Descriptions | undefined;
  }

  /**
   * Whether this run's era has no session to tie a grant to: 2026-07-28 over HTTP, where the
   * server serves descriptions and no unfetched call was refused so far (DESIGN, "Two protocol
   * eras"). Its session criteria (6, 7, 8) do not apply there.
   */
  sessionless(): boolean {
    if (this.saidSessionless) return true;
    const sessionless =
      this.target.era === MODERN_ERA &&
      this.target.kind === 'http' &&
      this.door.ledger.refusals === 0 &&
      this.descriptions?.resource !== undefined;
    // Once the calls before any fetch have shown it, it is said (session criteria skipped), whatever comes later.
    if (sessionless && this.unfetched) this.saidSessionless = true;
    return sessionless;
  }

  /**
   * Whether a rule the model judges applies in this run: in a sessionless era none about grants does (criteria 6-8, the
   * tool form's grants).
   */
  applies(brk: Pick<RuleBreak, 'check' | 'code'>): boolean {
    return (
      !this.sessionless() ||
      !(
        SESSION_CRITERIA.includes(brk.check) ||
        (brk.check === CRITERION.toolForm && TOOL_FORM_GRANT_RULES.includes(brk.code))
      )
    );
  }

  /** What the run knows of each tool now. */
  get tools(): ToolFacts {
    return this.toolFacts;
  }

  /** What the model knows of the server now (the resource and descriptions once fetched). */
  get world(): World {
    return this.currentWorld;
  }

  /** Whether, by the model, `session` holds the grant of `tool` now (its answered exchanges replayed). */
  granted(session: McpSession, tool: string): boolean {
    return this.states.of(this.currentWorld, session).grants.has(tool);
  }

  /** A label no other session of the run has, beyond those the plan gave the checks (s1, s2…): n1, n2… */
  nextLabel(prefix = 'n'): string {
    return `${prefix}${++this.labels}`;
  }

  /**
   * A new, initialized session with no authorizations, named `label` (the check's from the plan: the same in every
   * run).
   */
  open(options?: OpenOptions, label = this.nextLabel()): Promise<McpSession> {
    return this.target.open(label, options);
  }

  /**
   * The session opened once per run in which nothing is ever fetched: for calls of tools not
   * fetched. Where sessions are cheap (HTTP) it says it is another client than the others, so that
   * a server that keys grants by client identity refuses it (shown gating) while sessions under
   * the checker's own name share what they fetched (shown leaking).
   */
  cleanSession(): Promise<McpSession> {
    this.clean ??= this.target.open('c1', this.target.cheapSessions ? { clientInfo: CLEAN_CLIENT } : {});
    return this.clean;
  }

  /** Whether the clean session was opened (or is opening). */
  get cleanOpened(): boolean {
    return this.clean !== undefined;
  }
}
