import type { McpSession } from '../transport/session.js';
import type { Exchange, JsonObject } from '../transport/types.js';
import { invalidErrorCode } from './errors.js';
import { isPlainObject, resourceJson } from './payload.js';
import { descriptionsUri } from './uri.js';

export interface FetchedDescriptions {
  exchange: Exchange;
  uri: string;
  /** The JSON object the server returned (name → entry), when it returned one. */
  entries?: JsonObject;
  /** Why there are no entries, in plain words. */
  problem?: string;
}

/** Reads `<resource>?tools=a,b` and parses the name → description object. */
export async function fetchDescriptions(
  session: McpSession,
  resourceUri: string,
  names: string[],
  uri = descriptionsUri(resourceUri, names),
): Promise<FetchedDescriptions> {
  const exchange = await session.readResource(uri);
  const bad = invalidErrorCode(exchange);
  if (bad) return { exchange, uri, problem: bad };
  const payload = resourceJson(exchange);
  if (payload.problem) return { exchange, uri, problem: `the read returned ${payload.problem}` };
  if (!isPlainObject(payload.value)) return { exchange, uri, problem: 'the read returned JSON that is not an object' };
  return { exchange, uri, entries: payload.value };
}

/**
 * The entry for `name` in a payload: under its own key, or — where a server wrapped the answer in
 * one more object ({ "descriptions": { name: … } }) — one level down. The wrong shape is criterion
 * 4's finding alone; the other criteria read the content wherever it is, so that one defect is
 * one red criterion.
 */
export function entryFor(entries: JsonObject | undefined, name: string): unknown {
  if (!entries) return undefined;
  if (Object.prototype.hasOwnProperty.call(entries, name)) return entries[name];
  for (const value of Object.values(entries)) {
    if (isPlainObject(value) && Object.prototype.hasOwnProperty.call(value, name)) return value[name];
  }
  return undefined;
}

/** An entry that is a description (not a §6.3 "not found" entry or an error). */
export function isDescriptionEntry(entry: unknown): entry is JsonObject {
  return (
    isPlainObject(entry) && !('error' in entry) && ('inputSchema' in entry || 'description' in entry || 'name' in entry)
  );
}

/** Tools read per resources/read: a URI of fifty names stays well under any server's URL limit. */
const READ_GROUP = 50;

/**
 * The full descriptions of `names`, read from the resource in groups of fifty (a read, never a
 * call), and why each one that could not be read was not (for init and lock, which read them all).
 */
export async function readFullDescriptions(
  session: McpSession,
  resourceUri: string,
  names: readonly string[],
): Promise<{ full: Map<string, JsonObject>; unread: Array<{ name: string; why: string }> }> {
  const full = new Map<string, JsonObject>();
  const unread: Array<{ name: string; why: string }> = [];
  for (let i = 0; i < names.length; i += READ_GROUP) {
    const group = names.slice(i, i + READ_GROUP);
    const got = await fetchDescriptions(session, resourceUri, group);
    for (const name of group) {
      const entry = entryFor(got.entries, name);
      if (isDescriptionEntry(entry)) full.set(name, entry);
      else unread.push({ name, why: got.problem ?? got.exchange.note ?? 'no description under its name' });
    }
  }
  return { full, unread };
}
