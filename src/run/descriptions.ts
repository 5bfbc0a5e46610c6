import type { Exchange, JsonObject } from '../transport/types.js';
import { entryFor, fetchDescriptions } from '../protocol/fetch.js';
import { findSignalledError } from '../protocol/errors.js';
import { TOOL_DESCRIPTION_REQUIRED } from '../protocol/calls.js';
import { isPlainObject } from '../protocol/payload.js';
import { descriptionsUri, withoutQuery } from '../protocol/uri.js';
import { mapLimit } from '../util/concurrency.js';
import { DEFAULT_RESOURCE_URI, type Descriptions, type ResolvedResource } from './facts.js';
import type { Run } from './run.js';

/** Names per read of the full descriptions: URIs stay a sane length on servers with many tools. */
const GROUP = 50;
/** Reads of the full descriptions in flight at once. */
const AT_ONCE = 4;

/**
 * Finds the resource and fetches every tool's full description, once, in the probe session.
 * Produces the fact `descriptions`: empty without a resource.
 */
export async function fetchAllDescriptions(run: Run): Promise<void> {
  const resource = await resolve(run);
  const full = new Map<string, JsonObject>();
  const reads = new Map<string, Exchange>();
  const unanswered = new Map<string, Exchange>();
  const names = run.discovery.toolNames.filter((n) => !n.includes(','));
  if (resource && names.length) {
    const groups = Array.from({ length: Math.ceil(names.length / GROUP) }, (_, i) =>
      names.slice(i * GROUP, (i + 1) * GROUP),
    );
    // A read that got no answer is tried once more (a server busy starting, a loaded machine); one
    // still unanswered leaves its tools' descriptions unknown — never taken for their tools/list entries.
    const got = await mapLimit(groups, AT_ONCE, async (group) => {
      const first = await fetchDescriptions(run.probe, resource.uri, group);
      return first.exchange.noResponse === 'timeout' ? fetchDescriptions(run.probe, resource.uri, group) : first;
    });
    groups.forEach((group, i) => {
      for (const name of group) {
        if (got[i].exchange.noResponse) {
          unanswered.set(name, got[i].exchange);
          continue;
        }
        const entry = entryFor(got[i].entries, name);
        if (isPlainObject(entry) && !('error' in entry)) {
          full.set(name, Object.freeze(entry));
          reads.set(name, got[i].exchange);
        }
      }
    });
  }
  const fact: Descriptions = { ...(resource ? { resource: Object.freeze(resource) } : {}), full, reads, unanswered };
  run.produce('descriptions', Object.freeze(fact));
}

/**
 * The resource's URI: the one resources/list gives; else the base of a refusal's resource_uri
 * (from the calls made before anything was fetched); else the spec's default — each of the last
 * two only if a read of it works. Undefined when none does.
 */
async function resolve(run: Run): Promise<ResolvedResource | undefined> {
  const listed = run.discovery.descriptionsResource?.uri;
  if (listed) return { uri: listed, source: 'listed' };
  const probe = run.discovery.toolNames.find((n) => !n.includes(','));
  if (!probe) return undefined;
  for (const call of run.door.ledger.calls) {
    if (call.fetched) continue;
    const uri = findSignalledError(call.exchange, TOOL_DESCRIPTION_REQUIRED)?.payload.resource_uri;
    if (typeof uri === 'string' && uri.trim() && (await works(run, withoutQuery(uri), probe)))
      return { uri: withoutQuery(uri), source: 'refusal' };
  }
  if (await works(run, DEFAULT_RESOURCE_URI, probe)) return { uri: DEFAULT_RESOURCE_URI, source: 'default' };
  return undefined;
}

/** Whether reading `base?tools=<tool>` returns an object with that tool's entry. */
async function works(run: Run, base: string, tool: string): Promise<boolean> {
  const got = await fetchDescriptions(run.probe, base, [tool], descriptionsUri(base, [tool]));
  return isPlainObject(entryFor(got.entries, tool));
}
