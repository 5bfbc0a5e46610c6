import type { McpSession } from '../transport/session.js';
import type { Exchange, JsonObject } from '../transport/types.js';
import { classifyCall, invalidArguments, reachedTool, rejectsArguments, type CallOutcome } from '../protocol/calls.js';
import type { ToolFacts } from './tools.js';
import { NEAR_CALL_KINDS, resembled, type Resemblance } from '../model/ops.js';
import { inlineJson } from '../util/text.js';

/** Arguments as a key: the same arguments give the same key, whatever the order of their properties. */
function argumentsKey(args: JsonObject): string {
  return JSON.stringify(args, (_key, value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))) : value));
}

/**
 * What a call is for: `as-granted` gives a tool what the session's grant allows (its example once
 * fetched, `{}` unfetched — within the harm rules below); `invalid-arguments` gives it arguments its
 * own schema refuses (the input-validation check), whatever the session holds.
 */
export type CallIntent = 'as-granted' | 'invalid-arguments';

/** Why the door does not call a tool (the sentence of each is in `skip`). */
export type SkipReason = 'safe-calls' | 'ran-unfetched' | 'destructive' | 'no-invalid-arguments' | 'may-change-data' | 'ran-before' | 'no-answer' | 'ran-long' | 'needs-task' | 'declined' | 'proves-nothing';

/** Reasons a tool is not called that are not about harm (a read-only tool left out because another call already proved what it would). */
const NOT_HARM: ReadonlySet<SkipReason> = new Set(['no-answer', 'ran-long', 'needs-task', 'proves-nothing']);

/** The arguments of a call, or why the tool is not called at all. */
export type CallPlan = { args: JsonObject; violation?: string } | { skip: string; because: SkipReason };

/** One call the run made: who asked, in which session, with what, and what came of it. */
export interface CallRecord {
  tool: string;
  session: string;
  /** The check (or phase) that asked for it. */
  by: string;
  intent: CallIntent;
  /** Whether the session held the tool's grant, by the model, when it was called. */
  fetched: boolean;
  args: JsonObject;
  /** The schema violation the arguments were built to commit (refused-argument calls). */
  violation?: string;
  /** The call named no listed tool, but one it resembles (the exploration's near-name calls). */
  nearName?: boolean;
  /** A read that may have granted the tool was in flight in its session when it was sent: whether it was fetched is not known. */
  racedFetch?: boolean;
  /** The answer refused the arguments: the tool's own argument check answered. */
  argumentsRefused?: boolean;
  exchange: Exchange;
  outcome: CallOutcome;
}

/** A call the door did not make, and why (the tool's own reason). */
export interface NotCalled {
  tool: string;
  by: string;
  fetched: boolean;
  why: string;
  because: SkipReason;
}

/**
 * What calls taught that holds in every protocol era of one run (one server, one grant store):
 * the eras' ledgers share it, so a tool that gave no answer is not waited for again in the next
 * era, and a call that ran is not made again there.
 */
export class CallMemory {
  /** Tools that gave no answer to a call, with what was said of it (they are not called again). */
  readonly unanswered = new Map<string, string>();
  /**
   * Of those, the ones whose call got no answer though it was not fetched: on a server that gates,
   * an unfetched call of a slow tool is refused at once, so only these are not called unfetched again.
   */
  readonly unansweredUnfetched = new Set<string>();
  /** Tools whose call reported progress and was cancelled before its result (a long operation), with how long it ran: they are not called again. */
  readonly ranLong = new Map<string, string>();
  /** Each tool's arguments that reached it and ran (or failed at its work): never sent to a tool that is not read-only again. */
  readonly ranWith = new Map<string, Set<string>>();
  /** Each tool's arguments its own argument check refused: sent again, they do nothing. */
  readonly refusedWith = new Map<string, Set<string>>();

  /**
   * For a run that overlaps this one: only what keeps calls harmless is shared (arguments seen to
   * run are not sent again). What saves waiting would depend on which run got there first, and the
   * same seed must give the same report.
   */
  sharingHarmOnly(): CallMemory {
    const memory = new CallMemory();
    (memory as { ranWith: Map<string, Set<string>> }).ranWith = this.ranWith;
    return memory;
  }
}

/**
 * Every call of the run, made or not: the one record every sentence about calls is computed from
 * (what ran, what was not called and why, per tool).
 */
export class CallLedger {
  readonly calls: CallRecord[] = [];
  readonly refusedToCall: NotCalled[] = [];
  /** The first tool that ran although its session had not fetched it, if any. */
  ranUnfetched: string | undefined;
  /**
   * An unfetched call was answered by the tool's own argument check: the server validates
   * arguments, so more calls with arguments a schema refuses are as harmless as that one.
   */
  validates = false;
  /** How many unfetched calls were refused with TOOL_DESCRIPTION_REQUIRED. */
  refusals = 0;
  readonly unanswered: Map<string, string>;
  readonly unansweredUnfetched: Set<string>;
  readonly ranLong: Map<string, string>;
  private readonly ranWith: Map<string, Set<string>>;
  private readonly refusedWith: Map<string, Set<string>>;

  constructor(memory = new CallMemory()) {
    ({ unanswered: this.unanswered, unansweredUnfetched: this.unansweredUnfetched, ranLong: this.ranLong, ranWith: this.ranWith, refusedWith: this.refusedWith } = memory);
  }

  /** Records a call that was made. */
  record(call: CallRecord): void {
    this.calls.push(call);
    if (call.outcome.kind === 'no-response' && !this.unanswered.has(call.tool)) this.unanswered.set(call.tool, call.outcome.note);
    if (call.outcome.kind === 'no-response' && !call.fetched) this.unansweredUnfetched.add(call.tool);
    if (reachedTool(call.exchange) && !this.ranLong.has(call.tool)) this.ranLong.set(call.tool, `it reported progress, and was cancelled after ${(call.exchange.durationMs / 1000).toFixed(1)} s`);
    if (call.outcome.kind === 'authorized' && !call.nearName) {
      const seen = call.argumentsRefused ? this.refusedWith : this.ranWith;
      (seen.get(call.tool) ?? seen.set(call.tool, new Set()).get(call.tool)!).add(argumentsKey(call.args));
    }
    // A name that is no listed tool proves nothing about enforcement (the model judges it), nor
    // does a call sent while a read of its tool was in flight (it may have been granted first).
    if (call.fetched || call.nearName || call.racedFetch) return;
    if (call.outcome.kind === 'refused') this.refusals++;
    if (call.outcome.kind === 'authorized') this.ranUnfetched ??= call.tool;
    if (call.outcome.kind === 'authorized' && call.argumentsRefused) this.validates = true;
  }

  /** Whether `tool` was seen to run with `args` (it was not refused, and did not refuse them). */
  hasRun(tool: string, args: JsonObject): boolean {
    return this.ranWith.get(tool)?.has(argumentsKey(args)) ?? false;
  }

  /** Whether `tool`'s own argument check was seen to refuse `args`. */
  refusesArguments(tool: string, args: JsonObject): boolean {
    return this.refusedWith.get(tool)?.has(argumentsKey(args)) ?? false;
  }

  /** The calls made of a tool. */
  callsOf(tool: string): CallRecord[] {
    return this.calls.filter((c) => c.tool === tool);
  }

  wasCalled(tool: string): boolean {
    return this.calls.some((c) => c.tool === tool);
  }

  /** The first unfetched call of each tool. */
  unfetched(): Map<string, CallRecord> {
    const first = new Map<string, CallRecord>();
    for (const c of this.calls) if (!c.fetched && !first.has(c.tool)) first.set(c.tool, c);
    return first;
  }

  /**
   * Tools never called in the whole run, each with its own first reason (never another tool's), and
   * whether that reason is to do no harm (not: a tool that gave no answer, or that needs a task).
   */
  neverCalled(): Array<{ tool: string; why: string; harm: boolean }> {
    const out = new Map<string, NotCalled>();
    for (const n of this.refusedToCall) if (!this.wasCalled(n.tool) && !out.has(n.tool)) out.set(n.tool, n);
    return [...out].map(([tool, n]) => ({ tool, why: n.why, harm: !NOT_HARM.has(n.because) }));
  }

  /** Why the door did not call a tool for one asker (the first reason it gave), if it did not. */
  whyNotCalled(tool: string, by?: string): NotCalled | undefined {
    return this.refusedToCall.find((n) => n.tool === tool && (by === undefined || n.by === by));
  }
}

/** What the door needs of the run: the tools as known now, the model's view of a session, the options. */
export interface DoorContext {
  tools(): ToolFacts;
  /** Whether, by the model, `session` holds the grant of `tool` now. */
  granted(session: McpSession, tool: string): boolean;
  /** Whether a read in flight in `session` may grant `tool` (then a call now is neither surely fetched nor surely not). */
  grantInFlight(session: McpSession, tool: string): boolean;
  options: { safeCalls: boolean; allowDestructive: boolean };
}

export interface CallRequest {
  /** The check (or phase) asking. */
  by: string;
  intent?: CallIntent;
  /** The full description the session fetched: its examples are the arguments. */
  entry?: JsonObject;
}

/**
 * Calls that do no harm, for the whole run (DESIGN, "Calling tools"). Tools are really called, so
 * every call of every check and of the exploration goes through here:
 * - a read-only tool gets the first example of its full description that its schema accepts
 *   (unfetched: `{}`);
 * - without --allow-destructive, a tool that is not read-only gets only arguments its own
 *   inputSchema refuses (so that a server that validates does nothing); a tool with no such
 *   arguments, and every `destructiveHint: true` tool, is not called at all, fetched or not;
 * - once an unfetched call has run (the server does not enforce descriptions), no further tool
 *   that is not read-only is called unfetched; under --safe-calls, only read-only tools are.
 * Until the server has refused an unfetched call, unfetched calls of tools that are not read-only
 * go one at a time, so that the first one that runs stops the others; once it has shown that it
 * enforces descriptions, they go as they come.
 */
export class CallDoor {
  readonly ledger: CallLedger;
  private unfetchedQueue: Promise<unknown> = Promise.resolve();
  /** Calls of tools that may change data in flight, by tool and arguments. */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(private readonly run: DoorContext, memory?: CallMemory) {
    this.ledger = new CallLedger(memory);
  }

  /** How `tool` would be called in a session that has (`fetched`) or has not fetched it. */
  plan(tool: string, fetched: boolean, intent: CallIntent = 'as-granted', entry?: JsonObject): CallPlan {
    const tools = this.run.tools();
    const { safeCalls, allowDestructive } = this.run.options;
    if (!tools.isListed(tool)) return this.planNearName(tool, tools);
    const readOnly = tools.isReadOnly(tool);
    // Computed once: invalidArguments and the examples' schema check are on every call's path.
    const invalid = invalidArguments(entry?.inputSchema ?? tools.schema(tool));
    const refused = invalid ? { args: invalid.args, violation: invalid.violation } : undefined;
    if (!readOnly && safeCalls) return { skip: '--safe-calls: it is not marked read-only', because: 'safe-calls' };
    if (tools.needsTask(tool)) return { skip: 'it can be called only as a task (execution.taskSupport: required), which the checker does not speak', because: 'needs-task' };
    // A slow tool is not called again — but unfetched, on a server shown to gate, its call is refused
    // at once, and arguments its own check refused before are refused at once again.
    const planned: CallPlan = intent === 'invalid-arguments'
      ? refused ?? { skip: 'its inputSchema has no required property, no typed one, and allows any other, so no call can be built that surely breaks it', because: 'no-invalid-arguments' }
      : readOnly || allowDestructive ? { args: fetched ? tools.exampleArguments(tool, entry) : {} }
        : refused ?? { skip: 'it is not marked read-only, and its inputSchema refuses no arguments the checker could build, so any call could change data (--allow-destructive calls it)', because: 'may-change-data' };
    const unanswered = this.ledger.unanswered.get(tool);
    const refusedQuickly = (!fetched && this.ledger.refusals > 0 && !this.ledger.unansweredUnfetched.has(tool))
      || ('args' in planned && this.ledger.refusesArguments(tool, planned.args));
    if (unanswered !== undefined && !refusedQuickly) return { skip: `an earlier call got no answer (${unanswered.replace(/;.*$/, '')}): another would only wait again`, because: 'no-answer' };
    const ranLong = this.ledger.ranLong.get(tool);
    if (ranLong !== undefined && !refusedQuickly) return { skip: `an earlier call ran long (${ranLong}): another would only wait again`, because: 'ran-long' };
    if (tools.isDestructive(tool) && !allowDestructive) return { skip: 'it is annotated destructiveHint: true (--allow-destructive calls it)', because: 'destructive' };
    // Once a tool ran unfetched, only calls its schema refuses (as every call of a tool that is not
    // read-only is, without --allow-destructive), and only of a server shown to check them. A tool
    // with no such arguments is not called for its own reason (below), whatever ran.
    const refusedArgumentsOnly = intent === 'invalid-arguments' || !allowDestructive;
    if (!readOnly && !fetched && this.ledger.ranUnfetched && !(this.ledger.validates && refusedArgumentsOnly) && refused) {
      const only = this.ledger.validates ? 'it is called unfetched only with arguments its inputSchema refuses' : 'nothing showed that the server checks arguments, so no call of it is known to do nothing';
      return { skip: `it is not marked read-only, and '${this.ledger.ranUnfetched}' already ran unfetched (the server does not enforce descriptions): ${only}`, because: 'ran-unfetched' };
    }
    // A tool that may change data runs with the same arguments once at most.
    if ('args' in planned && !readOnly && this.ledger.hasRun(tool, planned.args)) {
      return { skip: `it already ran with ${inlineJson(planned.args, 80)} in this run, and it is not marked read-only: the same call again could change data again`, because: 'ran-before' };
    }
    return planned;
  }

  /**
   * A name that is no listed tool: called only when it resembles a read-only tool (other case,
   * spaces, separators), with `{}` as that tool unfetched, so that a server that resolves names
   * loosely does at most what the unfetched call of the tool itself does.
   */
  private planNearName(name: string, tools: ToolFacts): CallPlan {
    const near = resembled(name, tools.names);
    if (!near || !(NEAR_CALL_KINDS as readonly Resemblance[]).includes(near.how)) return { skip: 'it is no listed tool, nor one a loose server would take for a listed one', because: 'declined' };
    if (!tools.isReadOnly(near.tool) || tools.needsTask(near.tool)) return { skip: `it may be taken for '${near.tool}', which is not marked read-only`, because: 'declined' };
    return { args: {} };
  }

  /**
   * A read through the tool form of the resource (`tool`, marked by the server): a call of a
   * read-only tool that the model takes as the read it mirrors, not as a call (no ledger entry).
   */
  readThroughTool(session: McpSession, tool: string, names: string[] | undefined): Promise<Exchange> {
    return session.callTool(tool, names === undefined ? {} : { tools: names });
  }

  /** Records that a phase or check chose not to call `tool`, and why (its own reason, for the report; `because`: whether that is about harm). */
  decline(tool: string, by: string, why: string, because: SkipReason = 'declined'): void {
    this.ledger.refusedToCall.push({ tool, by, fetched: false, why, because });
  }

  /**
   * Calls `tool` in `session` as the plan allows, fetched or not by the model's view of that
   * session. Undefined when the plan says not to call; the ledger records both.
   */
  async call(session: McpSession, tool: string, request: CallRequest): Promise<Exchange | undefined> {
    if (this.ledger.refusals === 0 && !this.run.granted(session, tool) && !this.run.tools().isReadOnly(tool)) {
      // One at a time: the outcome of the one before decides whether this one is made.
      const turn = this.unfetchedQueue.then(() => this.callNow(session, tool, request));
      this.unfetchedQueue = turn.catch(() => {});
      return turn;
    }
    return this.callNow(session, tool, request);
  }

  private async callNow(session: McpSession, tool: string, request: CallRequest): Promise<Exchange | undefined> {
    for (;;) {
      const fetched = this.run.granted(session, tool);
      const plan = this.plan(tool, fetched, request.intent ?? 'as-granted', request.entry);
      if ('skip' in plan) {
        // A near name not called is no tool left uncalled (the report speaks of listed tools).
        if (!this.run.tools().isListed(tool)) return undefined;
        this.ledger.refusedToCall.push({ tool, by: request.by, fetched, why: plan.skip, because: plan.because });
        return undefined;
      }
      if (this.run.tools().isReadOnly(tool) || !this.run.tools().isListed(tool) || this.ledger.refusesArguments(tool, plan.args)) return this.make(session, tool, request, plan, fetched);
      // A tool that may change data, with arguments not yet seen refused: one such call at a time,
      // since whether it ran decides whether the next with the same arguments is made at all.
      const key = `${tool}\u0000${argumentsKey(plan.args)}`;
      const busy = this.inFlight.get(key);
      if (busy) {
        await busy;
        continue;
      }
      const made = this.make(session, tool, request, plan, fetched);
      this.inFlight.set(key, made);
      try {
        return await made;
      } finally {
        this.inFlight.delete(key);
      }
    }
  }

  private async make(session: McpSession, tool: string, request: CallRequest, plan: { args: JsonObject; violation?: string }, fetched: boolean): Promise<Exchange> {
    const intent = request.intent ?? 'as-granted';
    const racedFetch = !fetched && this.run.grantInFlight(session, tool);
    // A call that reports progress has reached its tool: it need not be waited out (a long operation).
    const exchange = await session.callTool(tool, plan.args, true);
    const outcome = classifyCall(exchange);
    const tools = this.run.tools();
    const nearName = !tools.isListed(tool);
    const argumentsRefused = outcome.kind === 'authorized' && rejectsArguments(exchange, request.entry?.inputSchema ?? tools.schema(tool));
    this.ledger.record({ tool, session: session.label, by: request.by, intent, fetched, args: plan.args, ...(plan.violation ? { violation: plan.violation } : {}), ...(nearName ? { nearName } : {}), ...(racedFetch ? { racedFetch } : {}), ...(argumentsRefused ? { argumentsRefused } : {}), exchange, outcome });
    return exchange;
  }
}
