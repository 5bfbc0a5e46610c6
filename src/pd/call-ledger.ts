import type { Discovery } from '../discovery.js';
import type { Exchange, JsonObject } from '../target/types.js';
import { callArguments, classifyCall, isDestructive, isReadOnly, type CallOutcome } from './calls.js';

/** A call to a tool that had not been fetched in its session, and what came of it. */
export interface UnfetchedCall {
  tool: string;
  exchange: Exchange;
  outcome: CallOutcome;
}

/**
 * Calls that do no harm, for the whole run. Tools are really called, so every check asks here
 * which tool it may call unfetched and with which arguments, and records what happened:
 * - unfetched calls go to read-only tools first, destructive ones last;
 * - once an unfetched call has run (the server evidently does not enforce descriptions), no
 *   further tool that is not read-only is called unfetched;
 * - a tool annotated destructiveHint gets its example arguments only with --allow-destructive
 *   (else `{}`, which a schema-checking server refuses before doing anything);
 * - one proof is never made twice: a result already recorded is reused.
 */
export class CallLedger {
  /** Results of unfetched calls, by tool (the first one made). */
  readonly unfetched = new Map<string, UnfetchedCall>();
  /** Tools left uncalled, and why (for the report). */
  readonly notCalled = new Map<string, string>();
  /** The first tool that ran although it had not been fetched, if any. */
  ranUnfetched: string | undefined;
  /** How many unfetched calls were refused with TOOL_DESCRIPTION_REQUIRED. */
  refusals = 0;

  constructor(private readonly discovery: Discovery, private readonly options: { safeCalls: boolean; allowDestructive: boolean }) {}

  /** The order unfetched calls go in: read-only tools first, destructive ones last. */
  order(tools: readonly string[]): string[] {
    const rank = (name: string) => (isReadOnly(this.discovery, name) ? 0 : isDestructive(this.discovery, name) ? 2 : 1);
    return [...tools].sort((a, b) => rank(a) - rank(b));
  }

  /** Why `tool` may not be called unfetched now; undefined when it may. */
  unfetchedRefusal(tool: string): string | undefined {
    if (isReadOnly(this.discovery, tool)) return undefined;
    if (this.options.safeCalls) return '--safe-calls: it is not marked read-only';
    if (this.ranUnfetched) return `'${this.ranUnfetched}' already ran unfetched, so the server does not enforce descriptions, and this tool is not marked read-only`;
    return undefined;
  }

  /**
   * The arguments of an authorized call: the first valid example of the tool's full description
   * (`entry`, or the run's cached one), or `{}` for a destructive tool without --allow-destructive.
   */
  arguments(tool: string, entry?: JsonObject): JsonObject {
    if (isDestructive(this.discovery, tool) && !this.options.allowDestructive) return {};
    return callArguments(this.discovery, tool, entry);
  }

  /**
   * Unfetched calls carry no arguments: a refusal needs none, and a server that runs the call
   * anyway gets nothing to act on.
   */
  unfetchedArguments(): JsonObject {
    return {};
  }

  /** Records an unfetched call and classifies it. */
  recordUnfetched(tool: string, exchange: Exchange): CallOutcome {
    const outcome = classifyCall(exchange);
    if (!this.unfetched.has(tool)) this.unfetched.set(tool, { tool, exchange, outcome });
    if (outcome.kind === 'refused') this.refusals++;
    if (outcome.kind === 'authorized') this.ranUnfetched ??= tool;
    return outcome;
  }

  /** Notes a tool left uncalled (the first reason given stands). */
  skip(tool: string, why: string): void {
    if (!this.notCalled.has(tool)) this.notCalled.set(tool, why);
  }
}
