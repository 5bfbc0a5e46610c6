import type { Exchange, JsonObject } from '../transport/types.js';
import type { McpSession } from '../transport/session.js';
import type { CallRecord, NotCalled } from './call-ledger.js';
import type { Discovery } from './discovery.js';

/** The spec's default URI of the resource (§4.1). */
export const DEFAULT_RESOURCE_URI = 'resource:///tool_descriptions';

/** Where the tool_descriptions resource was found, and how. */
export interface ResolvedResource {
  uri: string;
  source: 'listed' | 'refusal' | 'default';
}

/** The calls made before anything was fetched anywhere (read-only tools), then the others, in the clean session. */
export interface UnfetchedCalls {
  /** The tools called, or considered for a call, in order (read-only ones first); at most a sample on large servers. */
  tried: readonly string[];
  /** How many tools could have been tried. */
  total: number;
  calls: readonly CallRecord[];
  /** The tools of `tried` the door did not call, with the reason it gave. */
  notCalled: readonly NotCalled[];
  /** Why the clean session could not be opened, if it could not (then nothing was called). */
  unavailable?: string;
  /** It did not start in time: a slow start, which proves nothing about the server. */
  slowStart?: boolean;
}

/** The resource, and every tool's full description, fetched once in the probe session. */
export interface Descriptions {
  resource?: ResolvedResource;
  full: ReadonlyMap<string, JsonObject>;
  /** The read that returned each description (the proof of findings about it). */
  reads: ReadonlyMap<string, Exchange>;
  /** Tools whose descriptions were asked for and got no answer (twice), with that read: unknown, not absent. */
  unanswered: ReadonlyMap<string, Exchange>;
}

/** What a check of the run may read, each produced once by a phase and frozen then (src/run/phases.ts). */
export interface RunFacts {
  discovery: Discovery;
  unfetched: UnfetchedCalls;
  descriptions: Descriptions;
  /** Every session the run started (for checks that judge the whole run's traffic). */
  traffic: readonly McpSession[];
}
