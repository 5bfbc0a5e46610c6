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
    // A read refused as a whole (a server that limits the names of one read, §10.3) is read again in
    // smaller groups.
    const read = (group: string[]) => readGroup(run, resource.uri, group);
    const parts = (await mapLimit(groups, AT_ONCE, read)).flat();
    const got = parts.map((p) => p.got);
    parts
      .map((p) => p.group)
      .forEach((group, i) => {
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
 * One group's read; refused as a whole with a JSON-RPC error (too many names for this server), its
 * names are read again in groups of the size the error names (`data.max`), else of half as many,
 * down to one name a read.
 */
async function readGroup(
  run: Run,
  uri: string,
  group: string[],
): Promise<Array<{ group: string[]; got: Awaited<ReturnType<typeof fetchDescriptions>> }>> {
  let got = await fetchDescriptions(run.probe, uri, group);
  if (got.exchange.noResponse === 'timeout') got = await fetchDescriptions(run.probe, uri, group);
  const error = got.exchange.response?.error;
  if (!isPlainObject(error) || group.length < 2) return [{ group, got }];
  const max = isPlainObject(error.data) && typeof error.data.max === 'number' ? Math.floor(error.data.max) : 0;
  const size = max >= 1 && max < group.length ? max : Math.ceil(group.length / 2);
  const smaller = Array.from({ length: Math.ceil(group.length / size) }, (_, i) =>
    group.slice(i * size, (i + 1) * size),
  );
  const parts: Array<{ group: string[]; got: Awaited<ReturnType<typeof fetchDescriptions>> }> = [];
  for (const part of smaller) parts.push(...(await readGroup(run, uri, part)));
  return parts;
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
