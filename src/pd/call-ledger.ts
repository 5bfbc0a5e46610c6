import { toolEntry } from '../core/discovery.js';
import type { Discovery } from '../core/discovery.js';
import type { Exchange, JsonObject } from '../transport/types.js';
import { callArguments, classifyCall, invalidArguments, isDestructive, isReadOnly, type CallOutcome } from './calls.js';

/** A call to a tool that had not been fetched in its session, and what came of it. */
export interface UnfetchedCall {
  tool: string;
  exchange: Exchange;
  outcome: CallOutcome;
}

/** The arguments of a call, or why the tool is not called at all. */
export type CallPlan = { args: JsonObject } | { skip: string };

/**
 * Calls that do no harm, for the whole run (DESIGN, "Calling tools"). Tools are really called, so
 * every call of every check and of the exploration is planned here:
 * - a read-only tool gets the first example of its full description that its schema accepts
 *   (unfetched: `{}`);
 * - without --allow-destructive, a tool that is not read-only gets only arguments its own
 *   inputSchema refuses (so that a server that validates does nothing); a tool with no such
 *   arguments, and every `destructiveHint: true` tool, is not called at all, fetched or not;
 * - once an unfetched call has run (the server does not enforce descriptions), no further tool
 *   that is not read-only is called unfetched; under --safe-calls, only read-only tools are;
 * - unfetched calls go to read-only tools first (`order`).
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

  /** How `tool` may be called in a session that has (`fetched`) or has not fetched it; `entry`: its full description, if known. */
  plan(tool: string, fetched: boolean, entry?: JsonObject): CallPlan {
    const full = entry ?? this.discovery.fullDescriptions.get(tool);
    if (isReadOnly(this.discovery, tool)) return { args: fetched ? callArguments(this.discovery, tool, full) : {} };
    if (this.options.safeCalls) return { skip: '--safe-calls: it is not marked read-only' };
    if (!fetched && this.ranUnfetched) return { skip: `'${this.ranUnfetched}' already ran unfetched, so the server does not enforce descriptions, and this tool is not marked read-only` };
    if (isDestructive(this.discovery, tool) && !this.options.allowDestructive) return { skip: 'it is annotated destructiveHint: true (--allow-destructive calls it)' };
    if (this.options.allowDestructive) return { args: fetched ? callArguments(this.discovery, tool, full) : {} };
    const schema = full?.inputSchema ?? toolEntry(this.discovery, tool)?.inputSchema;
    const refused = invalidArguments(schema);
    if (refused) return { args: refused.args };
    return { skip: 'it is not marked read-only, and its inputSchema refuses no arguments the checker could build, so any call could change data (--allow-destructive calls it)' };
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
