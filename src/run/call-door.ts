import type { McpSession } from '../transport/session.js';
import type { Exchange, JsonObject } from '../transport/types.js';
import { classifyCall, invalidArguments, rejectsArguments, type CallOutcome } from '../protocol/calls.js';
import type { ToolFacts } from './tools.js';
import { NEAR_CALL_KINDS, resembled, type Resemblance } from '../model/ops.js';

/**
 * What a call is for: `as-granted` gives a tool what the session's grant allows (its example once
 * fetched, `{}` unfetched — within the harm rules below); `invalid-arguments` gives it arguments its
 * own schema refuses (the input-validation check), whatever the session holds.
 */
export type CallIntent = 'as-granted' | 'invalid-arguments';

/** Why the door does not call a tool (the sentence of each is in `skip`). */
export type SkipReason = 'safe-calls' | 'ran-unfetched' | 'destructive' | 'no-invalid-arguments' | 'may-change-data' | 'no-answer' | 'needs-task' | 'declined';

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
  /** Tools that gave no answer to a call, with what was said of it (they are not called again). */
  readonly unanswered = new Map<string, string>();

  /** Records a call that was made. */
  record(call: CallRecord): void {
    this.calls.push(call);
    if (call.outcome.kind === 'no-response' && !this.unanswered.has(call.tool)) this.unanswered.set(call.tool, call.outcome.note);
    // A name that is no listed tool proves nothing about enforcement (the model judges it).
    if (call.fetched || call.nearName) return;
    if (call.outcome.kind === 'refused') this.refusals++;
    if (call.outcome.kind === 'authorized') this.ranUnfetched ??= call.tool;
    if (call.outcome.kind === 'authorized' && call.argumentsRefused) this.validates = true;
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

  /** Tools never called in the whole run, each with its own first reason (never another tool's). */
  neverCalled(): Array<{ tool: string; why: string }> {
    const out = new Map<string, string>();
    for (const n of this.refusedToCall) if (!this.wasCalled(n.tool) && !out.has(n.tool)) out.set(n.tool, n.why);
    return [...out].map(([tool, why]) => ({ tool, why }));
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
  readonly ledger = new CallLedger();
  private unfetchedQueue: Promise<unknown> = Promise.resolve();

  constructor(private readonly run: DoorContext) {}

  /** How `tool` would be called in a session that has (`fetched`) or has not fetched it. */
  plan(tool: string, fetched: boolean, intent: CallIntent = 'as-granted', entry?: JsonObject): CallPlan {
    const tools = this.run.tools();
    const { safeCalls, allowDestructive } = this.run.options;
    if (!tools.isListed(tool)) return this.planNearName(tool, tools);
    const readOnly = tools.isReadOnly(tool);
    const refused = () => {
      const invalid = invalidArguments(entry?.inputSchema ?? tools.schema(tool));
      return invalid ? { args: invalid.args, violation: invalid.violation } : undefined;
    };
    if (!readOnly && safeCalls) return { skip: '--safe-calls: it is not marked read-only', because: 'safe-calls' };
    if (tools.needsTask(tool)) return { skip: 'it can be called only as a task (execution.taskSupport: required), which the checker does not speak', because: 'needs-task' };
    const unanswered = this.ledger.unanswered.get(tool);
    if (unanswered !== undefined) return { skip: `an earlier call got no answer (${unanswered.replace(/;.*$/, '')}): another would only wait again`, because: 'no-answer' };
    // Once a tool ran unfetched, only calls its schema refuses, and only of a server shown to check them.
    if (!readOnly && !fetched && this.ledger.ranUnfetched && !(this.ledger.validates && intent === 'invalid-arguments')) {
      return { skip: `'${this.ledger.ranUnfetched}' already ran unfetched, so the server does not enforce descriptions, and this tool is not marked read-only`, because: 'ran-unfetched' };
    }
    if (tools.isDestructive(tool) && !allowDestructive) return { skip: 'it is annotated destructiveHint: true (--allow-destructive calls it)', because: 'destructive' };
    if (intent === 'invalid-arguments') {
      return refused() ?? { skip: 'its inputSchema has neither a required property nor a typed one, so no call can be built that surely breaks it', because: 'no-invalid-arguments' };
    }
    if (readOnly || allowDestructive) return { args: fetched ? tools.exampleArguments(tool, entry) : {} };
    return refused() ?? { skip: 'it is not marked read-only, and its inputSchema refuses no arguments the checker could build, so any call could change data (--allow-destructive calls it)', because: 'may-change-data' };
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

  /** Records that a phase or check chose not to call `tool`, and why (its own reason, for the report). */
  decline(tool: string, by: string, why: string): void {
    this.ledger.refusedToCall.push({ tool, by, fetched: false, why, because: 'declined' });
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
    const fetched = this.run.granted(session, tool);
    const intent = request.intent ?? 'as-granted';
    const plan = this.plan(tool, fetched, intent, request.entry);
    if ('skip' in plan) {
      // A near name not called is no tool left uncalled (the report speaks of listed tools).
      if (!this.run.tools().isListed(tool)) return undefined;
      this.ledger.refusedToCall.push({ tool, by: request.by, fetched, why: plan.skip, because: plan.because });
      return undefined;
    }
    const exchange = await session.callTool(tool, plan.args);
    const outcome = classifyCall(exchange);
    const tools = this.run.tools();
    const nearName = !tools.isListed(tool);
    const argumentsRefused = outcome.kind === 'authorized' && rejectsArguments(exchange, request.entry?.inputSchema ?? tools.schema(tool));
    this.ledger.record({ tool, session: session.label, by: request.by, intent, fetched, args: plan.args, ...(plan.violation ? { violation: plan.violation } : {}), ...(nearName ? { nearName } : {}), ...(argumentsRefused ? { argumentsRefused } : {}), exchange, outcome });
    return exchange;
  }
}
