import type { Discovery } from '../core/discovery.js';
import type { McpSession } from '../transport/session.js';
import type { Exchange, JsonObject } from '../transport/types.js';
import { SessionStates } from '../model/state.js';
import type { World } from '../model/world.js';
import { CallLedger } from './call-ledger.js';
import { entryFor, fetchDescriptions } from './fetch.js';
import { isReadOnly, TOOL_DESCRIPTION_REQUIRED } from './calls.js';
import { findSignalledError } from './errors.js';
import { isPlainObject } from './payload.js';
import { descriptionsUri, withoutQuery } from './uri.js';

/** The spec's default URI of the resource (§4.1). */
export const DEFAULT_RESOURCE_URI = 'resource:///tool_descriptions';

/** Where the tool_descriptions resource was found, and how. */
export interface ResolvedResource {
  uri: string;
  source: 'listed' | 'refusal' | 'default';
}

/**
 * What the checks of one run share beyond the discovery, all owned by the run (never by a check):
 * the calls made (CallLedger), where the tool_descriptions resource is, the full descriptions once
 * fetched (in the reader, the probe session), a clean session for unfetched calls, and the
 * model's view of every session.
 */
export class RunState {
  readonly calls: CallLedger;
  private resolved: Promise<ResolvedResource | undefined> | undefined;
  private fetched: Promise<Map<string, JsonObject>> | undefined;
  private clean: Promise<McpSession> | undefined;
  private sessionCount = 0;

  constructor(
    private readonly discovery: Discovery,
    private readonly reader: McpSession,
    options: { safeCalls: boolean; allowDestructive: boolean },
    private readonly openSession: (label: string) => Promise<McpSession> = () => Promise.reject(new Error('no sessions')),
  ) {
    this.calls = new CallLedger(discovery, options);
  }

  /** A label no other session of the run has: s1, s2… */
  nextLabel(prefix = 's'): string {
    return `${prefix}${++this.sessionCount}`;
  }

  /**
   * A session opened once per run, in which nothing is ever fetched: the place for calls of tools
   * that were not fetched (criteria 7 and 8 call there).
   */
  cleanSession(): Promise<McpSession> {
    this.clean ??= this.openSession(this.nextLabel('c'));
    return this.clean;
  }

  /** Whether the clean session was opened (or is opening). */
  get cleanOpened(): boolean {
    return this.clean !== undefined;
  }

  /**
   * The resource's URI: the one resources/list gives; else the base of a refusal's resource_uri
   * (criterion 7 ran before); else the spec's default — each of the last two only if a read of
   * it works. Undefined when none does.
   */
  resource(): Promise<ResolvedResource | undefined> {
    this.resolved ??= this.resolve();
    return this.resolved;
  }

  /** The resource, if some check has looked for it (never starts a lookup itself). */
  async resolvedSoFar(): Promise<ResolvedResource | undefined> {
    return this.resolved ? this.resolved.catch(() => undefined) : undefined;
  }

  /** The full descriptions of every tool, fetched once in the reader session (empty without the resource). */
  fullDescriptions(): Promise<Map<string, JsonObject>> {
    this.fetched ??= this.fetchAll();
    return this.fetched;
  }

  /** What the model knows of the server now (the resource as far as it was found). */
  world(resource?: ResolvedResource): World {
    const key = `${resource?.uri ?? ''}\u0000${this.discovery.fullDescriptions.size}`;
    if (this.worldCache?.key !== key) this.worldCache = { key, world: this.buildWorld(resource) };
    return this.worldCache.world;
  }

  private worldCache: { key: string; world: World } | undefined;

  private buildWorld(resource?: ResolvedResource): World {
    const d = this.discovery;
    const listing = new Map<string, string>();
    for (const ex of d.toolsExchanges) {
      const cursor = (ex.request.params as { cursor?: unknown } | undefined)?.cursor;
      const tools = (ex.response?.result as { tools?: unknown } | undefined)?.tools;
      if (tools !== undefined) listing.set(typeof cursor === 'string' ? cursor : '', JSON.stringify(tools));
    }
    return {
      tools: d.toolNames,
      toolSet: new Set(d.toolNames),
      resource: resource?.uri ?? d.descriptionsResource?.uri,
      listed: d.descriptionsResource !== undefined,
      listing,
      descriptions: d.fullDescriptions,
      readOnly: new Set(d.toolNames.filter((n) => isReadOnly(d, n))),
    };
  }

  /**
   * Calls `tool` in `session` as the call plan allows (CallLedger: calls that do no harm), fetched
   * or not by the model's view of that session; `entry` is the full description the session
   * fetched, whose examples are the arguments. Undefined when the plan says not to call (the
   * reason is recorded for the report).
   */
  async callTool(session: McpSession, tool: string, entry?: JsonObject): Promise<Exchange | undefined> {
    const fetched = this.granted(session, tool);
    const plan = this.calls.plan(tool, fetched, entry);
    if ('skip' in plan) {
      this.calls.skip(tool, plan.skip);
      return undefined;
    }
    const ex = await session.callTool(tool, plan.args);
    if (!fetched) this.calls.recordUnfetched(tool, ex);
    return ex;
  }

  /** Whether, by the model, `session` holds the grant of `tool` now (its answered exchanges replayed). */
  granted(session: McpSession, tool: string): boolean {
    return this.states.of(this.world(), session).grants.has(tool);
  }

  private readonly states = new SessionStates();

  private async resolve(): Promise<ResolvedResource | undefined> {
    const listed = this.discovery.descriptionsResource?.uri;
    if (listed) return { uri: listed, source: 'listed' };
    const probe = this.discovery.toolNames.find((n) => !n.includes(','));
    if (!probe) return undefined;
    for (const call of this.calls.unfetched.values()) {
      const signal = findSignalledError(call.exchange, TOOL_DESCRIPTION_REQUIRED);
      const uri = signal?.payload.resource_uri;
      if (typeof uri === 'string' && uri.trim() && (await this.works(withoutQuery(uri), probe))) return { uri: withoutQuery(uri), source: 'refusal' };
    }
    if (await this.works(DEFAULT_RESOURCE_URI, probe)) return { uri: DEFAULT_RESOURCE_URI, source: 'default' };
    return undefined;
  }

  /** Whether reading `base?tools=<tool>` returns an object with that tool's entry. */
  private async works(base: string, tool: string): Promise<boolean> {
    const got = await fetchDescriptions(this.reader, base, [tool], descriptionsUri(base, [tool]));
    return isPlainObject(entryFor(got.entries, tool));
  }

  /** The read that returned a tool's full description in `fullDescriptions()` (the proof of findings about it). */
  descriptionExchange(tool: string): Exchange | undefined {
    return this.descriptionReads.get(tool);
  }

  private readonly descriptionReads = new Map<string, Exchange>();

  private async fetchAll(): Promise<Map<string, JsonObject>> {
    const map = this.discovery.fullDescriptions;
    const resource = await this.resource();
    const names = this.discovery.toolNames.filter((n) => !n.includes(','));
    if (!resource || !names.length) return map;
    // In groups, so that URIs stay a sane length on servers with many tools.
    for (let i = 0; i < names.length; i += 50) {
      const group = names.slice(i, i + 50);
      const got = await fetchDescriptions(this.reader, resource.uri, group);
      for (const name of group) {
        const entry = entryFor(got.entries, name);
        if (isPlainObject(entry) && !('error' in entry)) {
          map.set(name, entry);
          this.descriptionReads.set(name, got.exchange);
        }
      }
    }
    return map;
  }
}
