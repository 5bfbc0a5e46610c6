import type { McpSession } from '../transport/session.js';
import type { Exchange, JsonObject } from '../transport/types.js';
import { classifyCall, invalidArguments, rejectsArguments } from '../protocol/calls.js';
import type { ToolFacts } from './tools.js';
import { NEAR_CALL_KINDS, resembled, type Resemblance } from '../model/ops.js';
import { inlineJson } from '../util/text.js';
import type { CallPolicy } from './options.js';
import {
  argumentsKey,
  CallLedger,
  type CallMemory,
  SAFE_CALLS_WHY,
  type CallIntent,
  type CallPlan,
  type SkipReason,
} from './call-ledger.js';

/** What the door needs of the run: the tools as known now, the model's view of a session, its call policy. */
export interface DoorContext {
  tools(): ToolFacts;
  /** Whether, by the model, `session` holds the grant of `tool` now. */
  granted(session: McpSession, tool: string): boolean;
  /**
   * Whether a read in flight in `session` may grant `tool` (then a call now is neither surely fetched nor surely not).
   */
  grantInFlight(session: McpSession, tool: string): boolean;
  calls: Pick<CallPolicy, 'allowDestructive'>;
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

  constructor(
    private readonly run: DoorContext,
    memory?: CallMemory,
  ) {
    this.ledger = new CallLedger(memory);
  }

  /** How `tool` would be called in a session that has (`fetched`) or has not fetched it. */
  plan(tool: string, fetched: boolean, intent: CallIntent = 'as-granted', entry?: JsonObject): CallPlan {
    const tools = this.run.tools();
    const { allowDestructive } = this.run.calls;
    if (!tools.isListed(tool)) return this.planNearName(tool, tools);
    const readOnly = tools.isReadOnly(tool);
    // Computed once: invalidArguments and the examples' schema check are on every call's path.
    const invalid = invalidArguments(entry?.inputSchema ?? tools.schema(tool));
    const refused = invalid ? { args: invalid.args, violation: invalid.violation } : undefined;
    // --safe-calls is the tools' rule (ToolFacts, from the same call policy), applied here as everywhere.
    if (tools.barredBySafeCalls(tool)) return { skip: SAFE_CALLS_WHY, because: 'safe-calls' };
    if (tools.needsTask(tool))
      return {
        skip: 'it can be called only as a task (execution.taskSupport: required), which the checker does not speak',
        because: 'needs-task',
      };
    // A slow tool is not called again — but unfetched, on a server shown to gate, its call is refused
    // at once, and arguments its own check refused before are refused at once again.
    const planned: CallPlan =
      intent === 'invalid-arguments'
        ? (refused ??
          (readOnly || allowDestructive
            ? {
                skip: 'its inputSchema has no required property, no typed one, and allows any other, so no call can be built that surely breaks it',
                because: 'no-invalid-arguments',
              }
            : {
                // A tool that may change data is kept from harm: no call of it is sure to do nothing.
                skip: 'it is not marked read-only, and its inputSchema has no required property, no typed one, and allows any other, so no call can be built that surely breaks it',
                because: 'may-change-data',
              }))
        : readOnly || allowDestructive
          ? { args: fetched ? tools.exampleArguments(tool, entry) : {} }
          : (refused ?? {
              skip: 'it is not marked read-only, and its inputSchema refuses no arguments the checker could build, so any call could change data (--allow-destructive calls it)',
              because: 'may-change-data',
            });
    const unanswered = this.ledger.unanswered.get(tool);
    const refusedQuickly =
      (!fetched && this.ledger.refusals > 0 && !this.ledger.unansweredUnfetched.has(tool)) ||
      ('args' in planned && this.ledger.refusesArguments(tool, planned.args));
    if (unanswered !== undefined && !refusedQuickly)
      return {
        skip: `an earlier call got no answer (${unanswered.replace(/;.*$/, '')}): another would only wait again`,
        because: 'no-answer',
      };
    const ranLong = this.ledger.ranLong.get(tool);
    if (ranLong !== undefined && !refusedQuickly)
      return { skip: `an earlier call ran long (${ranLong}): another would only wait again`, because: 'ran-long' };
    if (tools.isDestructive(tool) && !allowDestructive)
      return { skip: 'it is annotated destructiveHint: true (--allow-destructive calls it)', because: 'destructive' };
    // Once a tool ran unfetched, only calls its schema refuses (as every call of a tool that is not
    // read-only is, without --allow-destructive), and only of a server shown to check them. A tool
    // with no such arguments is not called for its own reason (below), whatever ran.
    const refusedArgumentsOnly = intent === 'invalid-arguments' || !allowDestructive;
    if (
      !readOnly &&
      !fetched &&
      this.ledger.ranUnfetched &&
      !(this.ledger.validates && refusedArgumentsOnly) &&
      refused
    ) {
      const only = this.ledger.validates
        ? 'it is called unfetched only with arguments its inputSchema refuses'
        : 'nothing showed that the server checks arguments, so no call of it is known to do nothing';
      return {
        skip: `it is not marked read-only, and '${this.ledger.ranUnfetched}' already ran unfetched (the server does not enforce descriptions): ${only}`,
        because: 'ran-unfetched',
      };
    }
    // A tool that may change data runs with the same arguments once at most.
    if ('args' in planned && !readOnly && this.ledger.hasRun(tool, planned.args)) {
      return {
        skip: `it already ran with ${inlineJson(planned.args, 80)} in this run, and it is not marked read-only: the same call again could change data again`,
        because: 'ran-before',
      };
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
    if (!near || !(NEAR_CALL_KINDS as readonly Resemblance[]).includes(near.how))
      return { skip: 'it is no listed tool, nor one a loose server would take for a listed one', because: 'declined' };
    if (!tools.isReadOnly(near.tool) || tools.needsTask(near.tool))
      return { skip: `it may be taken for '${near.tool}', which is not marked read-only`, because: 'declined' };
    return { args: {} };
  }

  /**
   * A read through the tool form of the resource (`tool`, marked by the server): a call of a
   * read-only tool that the model takes as the read it mirrors, not as a call (no ledger entry).
   */
  readThroughTool(session: McpSession, tool: string, names: string[] | undefined): Promise<Exchange> {
    return session.callTool(tool, names === undefined ? {} : { tools: names });
  }

  /**
   * Records that a phase or check chose not to call `tool`, and why (its own reason, for the report; `because`: whether
   * that is about harm).
   */
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
      if (
        this.run.tools().isReadOnly(tool) ||
        !this.run.tools().isListed(tool) ||
        this.ledger.refusesArguments(tool, plan.args)
      )
        return this.make(session, tool, request, plan, fetched);
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

  private async make(
    session: McpSession,
    tool: string,
    request: CallRequest,
    plan: { args: JsonObject; violation?: string },
    fetched: boolean,
  ): Promise<Exchange> {
    const intent = request.intent ?? 'as-granted';
    const racedFetch = !fetched && this.run.grantInFlight(session, tool);
    // A call that reports progress has reached its tool: it need not be waited out (a long operation).
    const exchange = await session.callTool(tool, plan.args, true);
    const outcome = classifyCall(exchange);
    const tools = this.run.tools();
    const nearName = !tools.isListed(tool);
    const argumentsRefused =
      outcome.kind === 'authorized' && rejectsArguments(exchange, request.entry?.inputSchema ?? tools.schema(tool));
    this.ledger.record({
      tool,
      session: session.label,
      by: request.by,
      intent,
      fetched,
      args: plan.args,
      ...(plan.violation ? { violation: plan.violation } : {}),
      ...(nearName ? { nearName } : {}),
      ...(racedFetch ? { racedFetch } : {}),
      ...(argumentsRefused ? { argumentsRefused } : {}),
      exchange,
      outcome,
    });
    return exchange;
  }
}
