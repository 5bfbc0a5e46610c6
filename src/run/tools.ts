import type { JsonObject } from '../transport/types.js';
import { exampleArguments, isDestructiveTool, isReadOnlyTool } from '../protocol/calls.js';
import type { Discovery } from './discovery.js';
import type { CallPolicy } from './options.js';

const NO_DESCRIPTIONS: ReadonlyMap<string, JsonObject> = new Map();

/**
 * What the run knows of each tool, from its frozen facts: the tools/list entry, the full
 * description once fetched, and what the tool says of itself (read-only, destructive). Immutable:
 * a later phase makes a new one (`withDescriptions`).
 */
export class ToolFacts {
  private readonly entries = new Map<string, JsonObject>();
  private readonly readOnlySet: ReadonlySet<string>;

  /**
   * `calls`: the run's call policy. Tools the user named safe to call (`--safe-tool`) are called as
   * read-only ones are — unless they say they are destructive, which wins over every other word.
   */
  constructor(
    readonly discovery: Discovery,
    readonly full: ReadonlyMap<string, JsonObject> = NO_DESCRIPTIONS,
    private readonly calls: Pick<CallPolicy, 'safeCalls' | 'safeTools'> = { safeCalls: false, safeTools: [] },
  ) {
    for (const tool of discovery.tools)
      if (typeof tool.name === 'string' && !this.entries.has(tool.name)) this.entries.set(tool.name, tool);
    const named = new Set(calls.safeTools);
    this.readOnlySet = new Set(
      discovery.toolNames.filter(
        (n) =>
          isReadOnlyTool(this.entries.get(n), full.get(n)) ||
          (named.has(n) && !isDestructiveTool(this.entries.get(n), full.get(n))),
      ),
    );
  }

  /** The same tools, with their full descriptions known. */
  withDescriptions(full: ReadonlyMap<string, JsonObject>): ToolFacts {
    return new ToolFacts(this.discovery, full, this.calls);
  }

  get names(): readonly string[] {
    return this.discovery.toolNames;
  }

  /** Whether tools/list lists a tool of this name (a near name of one is not). */
  isListed(name: string): boolean {
    return this.entries.has(name);
  }

  /** The tools/list entry of a tool (the first one listed under its name). */
  entry(name: string): JsonObject | undefined {
    return this.entries.get(name);
  }

  /** Its inputSchema: the full description's once known, else the listed one. */
  schema(name: string): unknown {
    return this.full.get(name)?.inputSchema ?? this.entries.get(name)?.inputSchema;
  }

  isReadOnly(name: string): boolean {
    return this.readOnlySet.has(name);
  }

  get readOnly(): ReadonlySet<string> {
    return this.readOnlySet;
  }

  isDestructive(name: string): boolean {
    return isDestructiveTool(this.entries.get(name), this.full.get(name));
  }

  /**
   * Whether the tool can be called only with task augmentation (`execution.taskSupport: 'required'`, MCP 2025-11-25).
   */
  needsTask(name: string): boolean {
    return [this.entries.get(name), this.full.get(name)].some(
      (e) => (e?.execution as { taskSupport?: unknown } | undefined)?.taskSupport === 'required',
    );
  }

  /** The example arguments of a tool (`entry`: a full description a session fetched; default the run's). */
  exampleArguments(name: string, entry?: JsonObject): JsonObject {
    return exampleArguments(entry ?? this.full.get(name));
  }

  /**
   * The tools a check may call: all of them, or only read-only ones under `--safe-calls`; never a
   * name with a comma (it cannot be fetched), nor the tool form of the resource (a call of it is a read).
   */
  callable(): string[] {
    return this.callCandidates().filter((n) => !this.barredBySafeCalls(n));
  }

  /** The tools --safe-calls keeps every check from calling (of those it would call): the report names them. */
  barredTools(): string[] {
    return this.callCandidates().filter((n) => this.barredBySafeCalls(n));
  }

  /** Tools a call can be made of: never a name with a comma, nor the tool form of the resource. */
  private callCandidates(): string[] {
    const form = this.discovery.descriptionsTool?.name;
    return this.names.filter((n) => !n.includes(',') && n !== form);
  }

  /** Whether the run calls only read-only tools (--safe-calls). */
  get safeCallsOnly(): boolean {
    return this.calls.safeCalls;
  }

  /** Whether --safe-calls keeps the run from calling this tool (it is not read-only). */
  barredBySafeCalls(name: string): boolean {
    return this.calls.safeCalls && !this.isReadOnly(name);
  }

  /** The order calls go in: read-only tools first, destructive ones last. */
  order(tools: readonly string[]): string[] {
    const rank = (name: string) => (this.isReadOnly(name) ? 0 : this.isDestructive(name) ? 2 : 1);
    return [...tools].sort((a, b) => rank(a) - rank(b));
  }
}
