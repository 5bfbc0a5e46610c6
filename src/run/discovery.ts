import type { Target } from '../transport/target.js';
import type { McpSession } from '../transport/session.js';
import type { Exchange, JsonObject } from '../transport/types.js';
import { isToolDescriptionsUri } from '../protocol/uri.js';
import { isPlainObject } from '../protocol/payload.js';
import { toolFormOf } from '../protocol/tool-form.js';
import type { Era } from '../transport/era.js';
import { listAll, type Listing } from '../transport/lists.js';
import { formatNumber } from '../util/text.js';

/**
 * A first tools/list that got no answer in time is asked once more, with this many times the
 * request limit: everything else in the run rests on the listing, and a server slowed by a busy
 * machine must not read as one that lists nothing (a stuck one stays unanswered, and says so).
 */
export const LISTING_RETRY_FACTOR = 3;

/** What one probe session learned about the server: the run's first fact, frozen once made. */
export interface Discovery {
  serverInfo?: { name?: string; version?: string };
  protocolVersion?: string;
  capabilities: JsonObject;
  initializeResult: JsonObject;
  /** The protocol era of the run (its probe session's). */
  era: Era;
  /** The opening exchange of the probe session, initialize or server/discover (the proof for findings about it). */
  initializeExchanges: Exchange[];
  /** tools/list entries, raw (unknown fields such as `dashdash` kept). */
  tools: JsonObject[];
  toolNames: string[];
  toolsExchanges: Exchange[];
  toolsProblem?: string;
  /** The first tools/list got no answer within `firstMs`; it was asked again, with `windowMs`. */
  toolsAskedAgain?: { firstMs: number; windowMs: number };
  resources: JsonObject[];
  resourcesExchanges: Exchange[];
  resourcesProblem?: string;
  /** The listed tool_descriptions resource, if any. */
  descriptionsResource?: JsonObject & { uri: string };
  /** The tool marked as the tool form of the resource (its name, and the resource it says it mirrors), if any. */
  descriptionsTool?: { name: string; mirrors: string };
}

/**
 * Opens the probe session and learns the server; the session stays open for the caller (checks
 * that only read resources share it). A target that cannot be started or initialized throws
 * TargetUnavailableError.
 */
export async function discover(
  target: Target,
  onStarted: () => void = () => {},
  opened?: McpSession,
): Promise<{ discovery: Discovery; session: McpSession }> {
  let session: McpSession;
  try {
    session = opened ?? (await target.open('probe'));
  } finally {
    onStarted();
  }
  try {
    const init = session.initializeResult!;
    const { listing: tools, askedAgain } = await listTools(session);
    const toolEntries = tools.items.filter(isPlainObject);
    const toolNames = [...new Set(toolEntries.map((t) => t.name).filter((n): n is string => typeof n === 'string'))];
    const resources = await session.listAll('resources/list', 'resources');
    const resourceEntries = resources.items.filter(isPlainObject);
    const listed = resourceEntries.find((r) => typeof r.uri === 'string' && isToolDescriptionsUri(r.uri));
    const discovery: Discovery = {
      serverInfo: isPlainObject(init.serverInfo) ? init.serverInfo : undefined,
      protocolVersion: typeof init.protocolVersion === 'string' ? init.protocolVersion : undefined,
      capabilities: isPlainObject(init.capabilities) ? init.capabilities : {},
      initializeResult: init,
      era: session.era,
      initializeExchanges: session.exchanges.filter(
        (ex) => ex.method === 'initialize' || ex.method === 'server/discover',
      ),
      tools: toolEntries,
      toolNames,
      toolsExchanges: tools.exchanges,
      toolsProblem: tools.problem,
      ...(askedAgain ? { toolsAskedAgain: askedAgain } : {}),
      resources: resourceEntries,
      resourcesExchanges: resources.exchanges,
      resourcesProblem: resources.problem,
      descriptionsResource: listed as Discovery['descriptionsResource'],
    };
    const form = toolFormOf(toolEntries);
    if (form) discovery.descriptionsTool = form;
    return { discovery: freezeDiscovery(discovery), session };
  } catch (err) {
    await session.close();
    throw err;
  }
}

/**
 * tools/list to its end; a first page that got no answer in time is asked once more, with LISTING_RETRY_FACTOR times
 * the time.
 */
async function listTools(
  session: McpSession,
): Promise<{ listing: Listing; askedAgain?: { firstMs: number; windowMs: number } }> {
  const first = await session.listAll('tools/list', 'tools');
  if (first.items.length || first.exchanges.length !== 1 || first.exchanges[0].noResponse !== 'timeout')
    return { listing: first };
  const windowMs = session.timeoutMs * LISTING_RETRY_FACTOR;
  const again = await listAll(
    { request: (method, params) => session.request(method, params, windowMs) },
    'tools/list',
    'tools',
  );
  const exchanges = [...first.exchanges, ...again.exchanges];
  const problem =
    again.problem && !again.items.length
      ? `${first.problem}; asked again with ${formatNumber(windowMs)} ms, it ${again.problem.replace(/^tools\/list /, '')}`
      : again.problem;
  return {
    listing: { items: again.items, exchanges, ...(problem ? { problem } : {}) },
    askedAgain: { firstMs: session.timeoutMs, windowMs },
  };
}

/**
 * The discovery, frozen: what the server listed (deeply) and the lists of exchanges (whose
 * exchanges are the sessions' own records, not copies). No phase or check can change it.
 */
function freezeDiscovery(d: Discovery): Discovery {
  for (const list of [d.initializeExchanges, d.toolsExchanges, d.resourcesExchanges]) Object.freeze(list);
  for (const value of [
    d.tools,
    d.toolNames,
    d.resources,
    d.capabilities,
    d.initializeResult,
    d.serverInfo,
    d.descriptionsResource,
    d.descriptionsTool,
  ])
    deepFreeze(value);
  return Object.freeze(d);
}

/** Freezes a value all the way down. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<string | symbol, unknown>)[key]);
  return Object.freeze(value);
}
