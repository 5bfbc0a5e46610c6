// What the run's calls were and why others were not made: the door's record (src/run/call-door.ts
// decides and makes the calls), read by the checks, the verdict and the report.
import type { Exchange, JsonObject } from '../transport/types.js';
import { reachedTool, type CallOutcome } from '../protocol/calls.js';

/** Arguments as a key: the same arguments give the same key, whatever the order of their properties. */
export function argumentsKey(args: JsonObject): string {
  return JSON.stringify(args, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)))
      : value,
  );
}

/**
 * What a call is for: `as-granted` gives a tool what the session's grant allows (its example once
 * fetched, `{}` unfetched — within the harm rules below); `invalid-arguments` gives it arguments its
 * own schema refuses (the input-validation check), whatever the session holds.
 */
export type CallIntent = 'as-granted' | 'invalid-arguments';

/** Why the door does not call a tool (the sentence of each is in `skip`). */
export type SkipReason =
  | 'safe-calls'
  | 'ran-unfetched'
  | 'destructive'
  | 'no-invalid-arguments'
  | 'may-change-data'
  | 'ran-before'
  | 'no-answer'
  | 'ran-long'
  | 'needs-task'
  | 'declined'
  | 'proves-nothing';

/**
 * Reasons a tool is not called that are not about harm (a read-only tool left out because another call already proved
 * what it would).
 */
/** Why a tool that is not read-only is not called under --safe-calls. */
export const SAFE_CALLS_WHY = '--safe-calls: it is not marked read-only';
const NOT_HARM: ReadonlySet<SkipReason> = new Set([
  'no-answer',
  'ran-long',
  'needs-task',
  'proves-nothing',
  // Said of a read-only tool (one that may change data is kept as 'may-change-data').
  'no-invalid-arguments',
]);

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
  /**
   * A read that may have granted the tool was in flight in its session when it was sent: whether it was fetched is not
   * known.
   */
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
  /**
   * Tools whose call reported progress and was cancelled before its result (a long operation), with how long it ran:
   * they are not called again.
   */
  readonly ranLong = new Map<string, string>();
  /**
   * Each tool's arguments that reached it and ran (or failed at its work): never sent to a tool that is not read-only
   * again.
   */
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
    ({
      unanswered: this.unanswered,
      unansweredUnfetched: this.unansweredUnfetched,
      ranLong: this.ranLong,
      ranWith: this.ranWith,
      refusedWith: this.refusedWith,
    } = memory);
  }

  /** Records a call that was made. */
  record(call: CallRecord): void {
    this.calls.push(call);
    if (call.outcome.kind === 'no-response' && !this.unanswered.has(call.tool))
      this.unanswered.set(call.tool, call.outcome.note);
    if (call.outcome.kind === 'no-response' && !call.fetched) this.unansweredUnfetched.add(call.tool);
    if (reachedTool(call.exchange) && !this.ranLong.has(call.tool))
      this.ranLong.set(
        call.tool,
        `it reported progress, and was cancelled after ${(call.exchange.durationMs / 1000).toFixed(1)} s`,
      );
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
  neverCalled(barred: readonly string[] = []): Array<{ tool: string; why: string; harm: boolean }> {
    const out = new Map<string, { why: string; because: SkipReason }>();
    // A tool's own reason: that no call can be built to break its schema is only input validation's
    // (another part of the run may have kept it for a reason of the tool's own, said instead).
    for (const n of this.refusedToCall) {
      if (this.wasCalled(n.tool)) continue;
      const said = out.get(n.tool);
      if (!said || (said.because === 'no-invalid-arguments' && n.because !== 'no-invalid-arguments'))
        out.set(n.tool, n);
    }
    // Tools --safe-calls kept from every check: never asked of the door, said all the same.
    for (const tool of barred)
      if (!this.wasCalled(tool) && !out.has(tool)) out.set(tool, { why: SAFE_CALLS_WHY, because: 'safe-calls' });
    return [...out].map(([tool, n]) => ({ tool, why: n.why, harm: !NOT_HARM.has(n.because) }));
  }

  /** Why the door did not call a tool for one asker (the first reason it gave), if it did not. */
  whyNotCalled(tool: string, by?: string): NotCalled | undefined {
    return this.refusedToCall.find((n) => n.tool === tool && (by === undefined || n.by === by));
  }
}
