import type { Discovery } from '../discovery.js';
import type { McpSession } from '../target/session.js';
import type { Exchange, JsonObject } from '../target/types.js';
import { CallLedger } from './call-ledger.js';
import { entryFor, fetchDescriptions } from './fetch.js';
import { TOOL_DESCRIPTION_REQUIRED } from './calls.js';
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
 * What the checks of one run share beyond the discovery: the calls made (CallLedger), where the
 * tool_descriptions resource is, and the full descriptions once fetched. Both are found lazily,
 * in the reader (probe) session, so that nothing is fetched before the checks that need a server
 * with no fetch behind it have run (see the session plan in docs/DESIGN.md).
 */
export class RunState {
  readonly calls: CallLedger;
  /**
   * Criterion 6's session, once it has fetched (and so is authorized for) `granted`: criterion 8
   * reuses it as the session that fetched everything, and it stays open to the end of the run.
   */
  authorizedSession: { session: McpSession; granted: Set<string>; entries: Map<string, JsonObject>; lastFetch?: Exchange } | undefined;
  /** Whether the probe session has fetched a description (then it can no longer be a control). */
  readerFetched = false;
  private resolved: Promise<ResolvedResource | undefined> | undefined;
  private fetched: Promise<Map<string, JsonObject>> | undefined;

  constructor(private readonly discovery: Discovery, private readonly reader: McpSession, options: { safeCalls: boolean; allowDestructive: boolean }) {
    this.calls = new CallLedger(discovery, options);
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
    this.readerFetched = true;
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
    this.readerFetched = true;
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
