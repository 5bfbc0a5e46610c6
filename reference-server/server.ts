// The reference server: referenceBehaviour does progressive disclosure's server side (the resource,
// ?tools=, grants per session, refusals and errors), createReferenceServer wires it to the MCP SDK.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  PingRequestSchema,
  InitializeRequestSchema,
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type ReadResourceResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DescriptionLibrary, DESCRIPTIONS_DIR } from './descriptions.js';
import { Notebook, NoteError } from './notes.js';
import { parseSelection } from '../src/protocol/server/payloads.js';
import {
  answerRead,
  DESCRIPTIONS_RESOURCE,
  gateCall,
  readResult,
  refusal,
  toolFormResult,
  type Catalog,
} from '../src/protocol/server/disclosure.js';
import {
  DESCRIPTIONS_TOOL,
  descriptionsToolEntry,
  descriptionsToolFull,
  RESOURCE_URI,
  selectionOfArguments,
  workflowInstructions,
} from '../src/protocol/server/payloads.js';
import { descriptionsUri } from '../src/protocol/uri.js';
import { clarifyValidationError } from './sdk-errors.js';
import { EraFront } from '../src/protocol/server/era-front.js';
import { TOOLS } from './tools.js';
import { DEFAULT_FETCH_LIMIT, FetchLimiter } from '../src/protocol/server/limits.js';
import { SERVER_NAME, SERVER_VERSION } from './server-info.js';
import { aiHelp, RESOURCE_DASHDASH, SERVER_DASHDASH, TOOL_DASHDASH } from './dashdash.js';
import type { Behaviour, RunningCall, ServerOptions, SessionState, ToolCatalog } from './behaviour.js';

export { SERVER_NAME, SERVER_VERSION };
export type {
  Behaviour,
  ModernHttpGrants,
  RunningCall,
  ServerOptions,
  SessionState,
  ToolCatalog,
} from './behaviour.js';

/** tools/list pages hold this many tools, so that clients are shown pagination working. */
export const TOOLS_PAGE_SIZE = 4;

/** The reference server's own tools: the notebook's, described in reference-server/tool_descriptions. */
export const REFERENCE_CATALOG: ToolCatalog = { specs: TOOLS, library: new DescriptionLibrary() };
/** Tool Cards live next to tool_descriptions: reference-server/.well-known/mcp-tools/<tool>.json. */
const CARDS_DIR = join(dirname(DESCRIPTIONS_DIR), '.well-known', 'mcp-tools');

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

function toolError(code: string, message: string, extra: Record<string, unknown> = {}): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: json({ error: { code, message, ...extra } }) }] };
}

export const referenceBehaviour: Behaviour = {
  catalog: () => REFERENCE_CATALOG,

  // Stage 1 (§3.1): one line each, and an input schema without parameter details.
  listTools() {
    // The tool form first: it is called first, and a client that reads one page of the list sees it.
    const form = this.descriptionsTool();
    return [
      ...(form ? [form as Tool] : []),
      ...this.catalog().specs.map((t) => ({
        name: t.name,
        description: t.summary,
        inputSchema: { type: 'object' as const, additionalProperties: true },
        ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
        ...(t.annotations ? { annotations: t.annotations } : {}),
        ...(TOOL_DASHDASH[t.name] ? { dashdash: TOOL_DASHDASH[t.name] } : {}),
      })),
    ];
  },

  descriptionsTool: () => ({ ...descriptionsToolEntry(), dashdash: TOOL_DASHDASH[DESCRIPTIONS_TOOL] }),

  // The tool form answers through the resource's own read: the same JSON, the same errors, the same grants.
  callDescriptionsTool(args, state) {
    const selection = selectionOfArguments(args);
    const uri = selection.kind === 'tools' ? descriptionsUri(RESOURCE_URI, selection.names) : RESOURCE_URI;
    const asResult = (read: ReadResourceResult): CallToolResult => {
      const body = JSON.parse((read.contents[0] as { text?: string } | undefined)?.text ?? '{}') as Record<
        string,
        unknown
      >;
      return toolFormResult({ kind: 'answer', body, grants: selection.kind === 'tools' ? selection.names : [] });
    };
    // A read may answer later (a slow store): the tool form waits for it as the resource does.
    const read = this.readResource(uri, state) as ReadResourceResult | Promise<ReadResourceResult>;
    return read instanceof Promise ? read.then(asResult) : asResult(read);
  },

  listResources: () => [{ ...DESCRIPTIONS_RESOURCE, dashdash: RESOURCE_DASHDASH }],

  // Stage 2 (§4.3–4.4, §6.1, §6.3): fetching a known tool authorizes it for this session only —
  // the server side of progressive disclosure, as serve runs it too.
  readResource(uri, state) {
    const answer = answerRead(uri, disclosedBy(this));
    if (answer.kind === 'not-this-resource') {
      throw Object.assign(new Error(`Resource not found: ${uri.slice(0, 200)}`), {
        code: -32002,
        data: { uri: uri.slice(0, 200) },
      });
    }
    if (answer.kind === 'refused') throw Object.assign(new Error(answer.error.message), answer.error);
    this.authorize(state, answer.grants);
    return readResult(uri, answer.body);
  },

  isAuthorized: (state, tool) => state.grants.has(tool),
  authorize: (state, tools) => tools.forEach((t) => state.grants.add(t)),

  refuse(tool) {
    return refusal(tool, this.descriptionsTool()?.name as string | undefined);
  },

  pageTools(all, cursor) {
    const start = cursor === undefined ? 0 : Number.parseInt(Buffer.from(cursor, 'base64url').toString('utf8'), 10);
    if (!Number.isInteger(start) || start < 0 || start > all.length) {
      throw Object.assign(new Error('Invalid cursor'), { code: -32602 });
    }
    const end = start + TOOLS_PAGE_SIZE;
    return end < all.length
      ? { tools: all.slice(start, end), nextCursor: Buffer.from(String(end)).toString('base64url') }
      : { tools: all.slice(start) };
  },

  endsOnDelete: () => true,
  validatesOrigin: () => true,
  requiresSessionId: () => true,
  answersPing: () => true,
  modernHttpGrants: () => 'none',
  modernAnswer: (_method, answer) => answer,
  listPrompts: () => [],
  toolNamed: (name) => name,
  sessionStarted: () => {},
  sessionEnded: () => {},

  initializeExtras: () => ({ dashdash: SERVER_DASHDASH }),
  aiHelp: (params) => aiHelp(params),
  toolCard: (tool) => {
    const file = join(CARDS_DIR, `${tool}.json`);
    return /^[A-Za-z0-9_.-]+$/.test(tool) && existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as unknown)
      : undefined;
  },

  validateArguments(tool, args) {
    return this.catalog().library.validate(tool, args);
  },
  rejectArguments: (tool, problems) =>
    toolError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${problems.join('; ')}`),

  toolResult(tool, value) {
    const structured =
      this.catalog().specs.find((t) => t.name === tool)?.outputSchema && typeof value === 'object' && value !== null;
    return {
      content: [{ type: 'text', text: json(value) }],
      ...(structured ? { structuredContent: value as Record<string, unknown> } : {}),
    };
  },
};

/** What a behaviour discloses: its catalog's descriptions, and the tool form's when it offers one. */
function disclosedBy(behaviour: Behaviour): Catalog {
  const { library } = behaviour.catalog();
  const form = behaviour.descriptionsTool()?.name as string | undefined;
  const names = [...library.names(), ...(form ? [form] : [])];
  const full = form ? descriptionsToolFull(library.names()) : undefined;
  return { names: () => names, full: (n) => (n === form ? full : library.full(n)) };
}

function callTool(
  behaviour: Behaviour,
  state: SessionState,
  asked: string,
  args: Record<string, unknown>,
  gated: boolean,
  beforeRun?: (tool: string) => Promise<void>,
): CallToolResult | Promise<CallToolResult> {
  // Authorization is checked on the name as called (a listed tool not fetched is refused), then the name is resolved.
  const { specs } = behaviour.catalog();
  const library = disclosedBy(behaviour);
  const form = behaviour.descriptionsTool()?.name as string | undefined;
  // The tool form of the resource: what a read of the same selection answers, and grants.
  if (asked === form) return behaviour.callDescriptionsTool(args, state, library);
  if (gated && gateCall(asked, library, (t) => behaviour.isAuthorized(state, t), form)) return behaviour.refuse(asked);
  const name = behaviour.toolNamed(asked);
  const tool = specs.find((t) => t.name === name);
  if (!tool) {
    // Unknown tools are protocol errors (MCP tools spec, Error Handling).
    throw Object.assign(new Error(`Unknown tool: ${asked}`), { code: -32602 });
  }
  const problems = behaviour.validateArguments(name, args);
  if (problems.length) return behaviour.rejectArguments(name, problems);
  const run = (): CallToolResult => {
    try {
      return behaviour.toolResult(name, tool.run(state.notebook, args));
    } catch (err) {
      if (err instanceof NoteError) return toolError(err.code, err.message);
      throw err;
    }
  };
  // A fixture's long-running tool works first; the gate and the argument check are not passed twice.
  return beforeRun ? beforeRun(name).then(run) : run();
}

/** A session's state at its start: no grants, an empty notebook, a full fetch budget. */
export function newSessionState(fetchLimit?: number): SessionState {
  return { grants: new Set(), notebook: new Notebook(), fetches: new FetchLimiter(fetchLimit ?? DEFAULT_FETCH_LIMIT) };
}

export function behaviourWith(overrides: Partial<Behaviour> = {}): Behaviour {
  return { ...referenceBehaviour, ...overrides };
}

/** One Server per MCP session: over stdio that is the process, over HTTP one per Mcp-Session-Id. */
export function createReferenceServer(overrides: Partial<Behaviour> = {}, options: ServerOptions = {}): Server {
  const behaviour = behaviourWith(overrides);
  const state: SessionState = options.state ?? newSessionState(options.fetchLimit);
  const gated = options.gated ?? true;
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      // Prompts: none, but the list answers (clients and 2026-07-28 caches ask for every list).
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: workflowInstructions(behaviour.descriptionsTool()?.name as string | undefined),
    },
  );
  // The SDK has no hook for extra initialize fields: answer as it does, plus dashdash (§3.1.1).
  const sdkInitialize = (
    server as unknown as { _oninitialize(r: unknown): Promise<Record<string, unknown>> }
  )._oninitialize.bind(server);
  server.setRequestHandler(InitializeRequestSchema, async (req) => {
    state.client = req.params.clientInfo;
    return { ...(await sdkInitialize(req)), ...behaviour.initializeExtras() };
  });
  // ai_help is not an MCP method, so it has no SDK schema: serve it from the fallback handler.
  server.fallbackRequestHandler = async (req) => {
    if (req.method === 'ai_help') return behaviour.aiHelp(req.params ?? {});
    throw Object.assign(new Error(`Method not found: ${req.method}`), { code: -32601 });
  };
  // MCP ping: an empty result (the SDK's own handler); a fixture's server may not answer it.
  if (!behaviour.answersPing())
    server.setRequestHandler(PingRequestSchema, () => {
      throw Object.assign(new Error('Method not found: ping'), { code: -32601 });
    });
  server.setRequestHandler(ListToolsRequestSchema, (req) =>
    behaviour.pageTools(behaviour.listTools(state), req.params?.cursor),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: behaviour.listResources(state) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: behaviour.listPrompts() }));
  server.setRequestHandler(ReadResourceRequestSchema, (req) => {
    // Counted before any work: a refused fetch costs nothing and authorizes nothing.
    if (parseSelection(req.params.uri).kind !== 'not-this-resource') state.fetches.take();
    return behaviour.readResource(req.params.uri, state);
  });
  server.setRequestHandler(CallToolRequestSchema, (req, extra) => {
    const token = req.params._meta?.progressToken;
    const running: RunningCall = {
      progressToken: token,
      progress: async (progress, total) => {
        if (token !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress, ...(total !== undefined ? { total } : {}) },
          });
      },
      signal: extra.signal,
    };
    return callTool(
      behaviour,
      state,
      req.params.name,
      req.params.arguments ?? {},
      gated,
      options.beforeRun && ((tool) => options.beforeRun!(tool, running)),
    );
  });
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    const send = transport.send.bind(transport);
    await connect(transport);
    const latency = options.latencyMs;
    const sdkHandle = transport.onmessage!;
    const handle: typeof sdkHandle = latency
      ? (message, extra) => {
          const ms = 'method' in message ? latency(message.method, message.params ?? {}) : 0;
          if (ms === Infinity) return;
          if (ms > 0) setTimeout(() => sdkHandle(message, extra), ms);
          else sdkHandle(message, extra);
        }
      : sdkHandle;
    // Both protocol eras on one connection: its first request says which (the SDK speaks 2025-11-25).
    let sendOptions: Parameters<typeof send>[1];
    let extra: Parameters<typeof sdkHandle>[1];
    const front = new EraFront({
      toServer: (m) => handle(m as never, extra),
      // An answer whose client stopped waiting (its stream closed: a timeout, a cancel) has nowhere
      // to go; the SDK says so by rejecting, which must not end the server.
      toClient: (m) => void send(clarifyValidationError(m as never) as never, sendOptions).catch(() => {}),
      // tools/list and the resource list are the same for every client; a read is the client's own.
      cacheScope: (method) => (method === 'resources/read' ? 'private' : 'public'),
      amend: (method, answer) => behaviour.modernAnswer(method, answer),
    });
    transport.onmessage = (message, ex) => {
      extra = ex;
      front.fromClient(message);
      state.era = front.era;
    };
    transport.send = (message, opts) => {
      sendOptions = opts;
      front.fromServer(message);
      return Promise.resolve();
    };
  };
  return server;
}
