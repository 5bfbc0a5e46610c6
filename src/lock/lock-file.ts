// The lock file: a server's tool surface per protocol era, as its clients' models read it —
// each tool's listed definition and full description by sha256 digest of canonical JSON
// (RFC 8785), their tokens, and what a reviewer reads in clear (the listed description, the
// annotations, the parameters). The same surface always gives the same bytes: no timestamps,
// tools and keys in a fixed order.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { EraSurface, LockedTool, ToolLock } from '../generated/lock.js';
import type { JsonObject } from '../transport/types.js';
import type { Era } from '../transport/era.js';
import { isPlainObject } from '../protocol/payload.js';
import { countTokensOf, TOKEN_ENCODING } from '../util/tokens.js';

export type { EraSurface, LockedTool, ToolLock };

export const LOCK_VERSION = 1;
export const DEFAULT_LOCK_FILE = 'mcp-tools.lock.json';

/** What one era of a server showed: its listing, and the full descriptions its resource served. */
export interface EraListing {
  era: Era;
  tools: readonly JsonObject[];
  /** The tool_descriptions resource's URI, when the server serves one. */
  resource?: string;
  full: ReadonlyMap<string, JsonObject>;
}

/** `sha256:<hex>` of a value's canonical JSON (RFC 8785). */
export function digestOf(value: unknown): string {
  return `sha256:${createHash('sha256')
    .update(canonicalize(value) ?? 'null')
    .digest('hex')}`;
}

/** The lock of a server: one surface per era it speaks. */
export async function buildLock(server: string | undefined, listings: readonly EraListing[]): Promise<ToolLock> {
  const sorted = [...listings]
    .sort((a, b) => (a.era < b.era ? -1 : 1))
    .map((l) => ({ listing: l, byName: toolsByName(l.tools) }));
  // countTokensOf counts each distinct text once: two eras that list the same tools cost one count.
  const texts = sorted.flatMap(({ listing, byName }) =>
    [...byName].flatMap(([name, tool]) => [
      JSON.stringify(tool),
      ...(listing.full.has(name) ? [JSON.stringify(listing.full.get(name))] : []),
    ]),
  );
  const counts = await countTokensOf(texts);
  const tokensOf = new Map(texts.map((text, i) => [text, counts[i]]));
  const count = (value: unknown) => tokensOf.get(JSON.stringify(value)) ?? 0;
  const eras: Record<string, EraSurface> = {};
  for (const { listing, byName } of sorted) eras[listing.era] = eraSurface(listing, byName, count);
  return {
    lockVersion: LOCK_VERSION,
    generator: 'mcp-pd-check',
    tokenizer: TOKEN_ENCODING,
    ...(server ? { server } : {}),
    eras,
  };
}

/** One entry per name (a name listed twice is one tool to a client: the first wins), sorted. */
function toolsByName(tools: readonly JsonObject[]): Map<string, JsonObject> {
  const byName = new Map<string, JsonObject>();
  for (const tool of tools) if (typeof tool.name === 'string' && !byName.has(tool.name)) byName.set(tool.name, tool);
  return new Map([...byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function eraSurface(
  listing: EraListing,
  byName: Map<string, JsonObject>,
  count: (value: unknown) => number,
): EraSurface {
  const tools: Record<string, LockedTool> = {};
  let listedTokens = 0;
  let fullTokens = 0;
  for (const [name, tool] of byName) {
    const full = listing.full.get(name);
    const listed = count(tool);
    listedTokens += listed;
    if (full) fullTokens += count(full);
    tools[name] = {
      digest: digestOf(tool),
      tokens: listed,
      ...(typeof tool.title === 'string' ? { title: tool.title } : {}),
      description: typeof tool.description === 'string' ? tool.description : '',
      ...(isPlainObject(tool.annotations) ? { annotations: sortedKeys(tool.annotations) as JsonObject } : {}),
      inputSchema: lockedSchema(tool.inputSchema),
      ...(tool.outputSchema !== undefined ? { outputSchema: digestOf(tool.outputSchema) } : {}),
      ...(full ? { full: lockedFull(full, count(full)) } : {}),
    };
  }
  const withFull = listing.resource !== undefined;
  return {
    fullDescriptions: listing.resource ?? 'none',
    totals: { tools: byName.size, listedTokens, ...(withFull ? { fullTokens } : {}) },
    tools,
  };
}

/**
 * A full description: by digest, with its text and parameters in clear (where the details live under progressive
 * disclosure).
 */
function lockedFull(full: JsonObject, tokens: number): NonNullable<LockedTool['full']> {
  return {
    digest: digestOf(full),
    tokens,
    ...(typeof full.description === 'string' ? { description: full.description } : {}),
    ...(full.inputSchema !== undefined ? { inputSchema: lockedSchema(full.inputSchema) } : {}),
  };
}

/** The parameters of an input schema, each by digest, and which are required. */
function lockedSchema(schema: unknown): LockedTool['inputSchema'] {
  const properties = isPlainObject(schema) && isPlainObject(schema.properties) ? schema.properties : {};
  const required =
    isPlainObject(schema) && Array.isArray(schema.required)
      ? schema.required.filter((r): r is string => typeof r === 'string').sort()
      : [];
  return {
    digest: digestOf(schema ?? null),
    ...(required.length ? { required } : {}),
    properties: Object.fromEntries(
      Object.keys(properties)
        .sort()
        .map((p) => [p, digestOf(properties[p])]),
    ),
  };
}

/** A copy with every object's keys sorted: the same value is always written the same way. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortedKeys(value[k])]),
  );
}

/** The file's bytes: two-space JSON and a final newline (what a reviewer diffs). */
export function lockText(lock: ToolLock): string {
  return `${JSON.stringify(lock, null, 2)}\n`;
}
