import type { Target } from '../transport/target.js';
import type { McpSession } from '../transport/session.js';
import type { Exchange, JsonObject } from '../transport/types.js';
import { isToolDescriptionsUri } from '../pd/uri.js';
import { isPlainObject } from '../pd/payload.js';

/** What one probe session learned about the server; shared read-only by every check. */
export interface Discovery {
  serverInfo?: { name?: string; version?: string };
  protocolVersion?: string;
  capabilities: JsonObject;
  initializeResult: JsonObject;
  /** The initialize exchange of the probe session (the proof for findings about it). */
  initializeExchanges: Exchange[];
  /** tools/list entries, raw (unknown fields such as `dashdash` kept). */
  tools: JsonObject[];
  toolNames: string[];
  toolsExchanges: Exchange[];
  toolsProblem?: string;
  resources: JsonObject[];
  resourcesExchanges: Exchange[];
  resourcesProblem?: string;
  /** The listed tool_descriptions resource, if any. */
  descriptionsResource?: JsonObject & { uri: string };
  /**
   * Full descriptions, once a check has needed them (RunState.fullDescriptions fetches them in the
   * probe session, lazily: nothing is fetched before the checks that need a clean server ran).
   */
  fullDescriptions: Map<string, JsonObject>;
}

/**
 * Opens the probe session and learns the server; the session stays open for the caller (checks
 * that only read resources share it). A target that cannot be started or initialized throws
 * TargetUnavailableError.
 */
export async function discover(target: Target, onStarted: () => void = () => {}): Promise<{ discovery: Discovery; session: McpSession }> {
  let session: McpSession;
  try {
    session = await target.open('probe');
  } finally {
    onStarted();
  }
  try {
    const init = session.initializeResult!;
    const tools = await session.listAll('tools/list', 'tools');
    const toolEntries = tools.items.filter(isPlainObject);
    const toolNames = [...new Set(toolEntries.map((t) => t.name).filter((n): n is string => typeof n === 'string'))];
    const resources = await session.listAll('resources/list', 'resources');
    const resourceEntries = resources.items.filter(isPlainObject);
    const listed = resourceEntries.find((r) => typeof r.uri === 'string' && isToolDescriptionsUri(r.uri));
    const discovery: Discovery = {
      serverInfo: isPlainObject(init.serverInfo) ? (init.serverInfo as Discovery['serverInfo']) : undefined,
      protocolVersion: typeof init.protocolVersion === 'string' ? init.protocolVersion : undefined,
      capabilities: isPlainObject(init.capabilities) ? init.capabilities : {},
      initializeResult: init,
      initializeExchanges: session.exchanges.filter((ex) => ex.method === 'initialize'),
      tools: toolEntries,
      toolNames,
      toolsExchanges: tools.exchanges,
      toolsProblem: tools.problem,
      resources: resourceEntries,
      resourcesExchanges: resources.exchanges,
      resourcesProblem: resources.problem,
      descriptionsResource: listed as Discovery['descriptionsResource'],
      fullDescriptions: new Map(),
    };
    return { discovery, session };
  } catch (err) {
    await session.close();
    throw err;
  }
}

const INDEX = new WeakMap<Discovery, Map<string, JsonObject>>();

/** The tools/list entry of a tool, by name (the first one listed under it); indexed once per discovery. */
export function toolEntry(discovery: Discovery, name: string): JsonObject | undefined {
  let index = INDEX.get(discovery);
  if (!index || index.size === 0 && discovery.tools.length) {
    index = new Map();
    for (const tool of discovery.tools) if (typeof tool.name === 'string' && !index.has(tool.name)) index.set(tool.name, tool);
    INDEX.set(discovery, index);
  }
  return index.get(name);
}
