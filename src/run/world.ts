import { listingKey, type World } from '../model/world.js';
import type { Discovery } from './discovery.js';
import type { Descriptions } from './facts.js';
import { ToolFacts } from './tools.js';

/** What the model knows of the server from the run's facts: fixed once the descriptions are in. */
export function worldOf(d: Discovery, descriptions?: Descriptions): World {
  const listing = new Map<string, string>();
  for (const ex of d.toolsExchanges) {
    const cursor = (ex.request.params as { cursor?: unknown } | undefined)?.cursor;
    const tools = (ex.response?.result as { tools?: unknown } | undefined)?.tools;
    if (tools !== undefined) listing.set(typeof cursor === 'string' ? cursor : '', listingKey(tools));
  }
  const full = descriptions?.full ?? new Map();
  const facts = new ToolFacts(d, full);
  return {
    tools: d.toolNames,
    toolSet: new Set(d.toolNames),
    resource: descriptions?.resource?.uri ?? d.descriptionsResource?.uri,
    listed: d.descriptionsResource !== undefined,
    listing,
    descriptions: full,
    schemas: new Map(d.toolNames.map((n) => [n, facts.schema(n)])),
    readOnly: facts.readOnly,
    ...(d.descriptionsTool ? { descriptionsTool: d.descriptionsTool.name } : {}),
  };
}
