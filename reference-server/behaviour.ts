// The reference server's duties, one method each (Behaviour), and what a session owns: the negative
// fixtures replace exactly one method of referenceBehaviour (server.ts) to break exactly one criterion.
import type { CallToolResult, ReadResourceResult, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { DescriptionLibrary } from './descriptions.js';
import type { Notebook } from './notes.js';
import type { Catalog } from '../src/protocol/server/disclosure.js';
import type { Era } from '../src/transport/era.js';
import type { JsonObject } from '../src/transport/types.js';
import type { ToolSpec } from './tools.js';
import type { FetchLimiter } from '../src/protocol/server/limits.js';

/** Everything one MCP session owns: its grants (§5.1), its own notebook, its fetch budget (§10.3). */
export interface SessionState {
  grants: Set<string>;
  notebook: Notebook;
  fetches: FetchLimiter;
  /** The protocol era its client speaks, once its first request said it. */
  era?: Era;
  /** Who the client said it is (initialize's clientInfo). */
  client?: { name: string; version: string };
  /** Over HTTP: the address the session's first request came from. */
  peer?: string;
}

/**
 * Whose grants a 2026-07-28 client over HTTP holds, where there is no session: none (calls are
 * not gated: PD v2.1 §5 ties a grant to a session), each request its own, or one set for the process.
 */
export type ModernHttpGrants = 'none' | 'per-request' | 'process-wide';

export interface ServerOptions {
  /** The state to serve from (a 2026 HTTP request's); by default one of its own, for its one session. */
  state?: SessionState;
  /** Whether calls wait for their description to be fetched (default true; 2026 over HTTP: see ModernHttpGrants). */
  gated?: boolean;
  /** Description fetches allowed per minute and session; 0: no limit. */
  fetchLimit?: number;
  /**
   * How long each request waits before it is handled, by method and params (a slow server for tests
   * and the bench); Infinity: it is never answered (a tool that waits on an unreachable network).
   */
  latencyMs?: (method: string, params: Record<string, unknown>) => number;
  /**
   * Work a tool does before its result, once the call passed the gate and its arguments their
   * check (a fixture's long-running tool that reports progress, as real ones do): the call's result
   * waits for it.
   */
  beforeRun?: (tool: string, call: RunningCall) => Promise<void>;
}

/** What a running call offers a fixture's tool: its progress token, progress notifications, cancellation. */
export interface RunningCall {
  progressToken: string | number | undefined;
  progress(progress: number, total?: number): Promise<void>;
  /** Aborted when the client cancels the call (notifications/cancelled). */
  signal: AbortSignal;
}

/**
 * The server's behaviour, one method per protocol duty. The reference implementation is below;
 * the negative fixtures replace exactly one method to break exactly one criterion.
 */
/** The tools a server offers: what each does (and how tools/list shows it), and their full descriptions. */
export interface ToolCatalog {
  specs: readonly ToolSpec[];
  library: DescriptionLibrary;
}

export interface Behaviour {
  /**
   * Its tools: the notebook's by default; a fixture may offer others (a tool that takes no arguments, unannotated
   * ones).
   */
  catalog(): ToolCatalog;
  listTools(state: SessionState): Tool[];
  listResources(state: SessionState): Resource[];
  readResource(uri: string, state: SessionState): ReadResourceResult;
  isAuthorized(state: SessionState, tool: string): boolean;
  authorize(state: SessionState, tools: string[]): void;
  refuse(tool: string): CallToolResult;
  /** One page of tools/list (MCP pagination: an opaque cursor, nextCursor until the end). */
  pageTools(all: Tool[], cursor: string | undefined): { tools: Tool[]; nextCursor?: string };
  /** What is wrong with a call's arguments, by the tool's full inputSchema (MCP: servers MUST validate inputs). */
  validateArguments(tool: string, args: Record<string, unknown>): string[];
  /** The answer to arguments that break the schema: a tool result with isError, so the model can correct itself. */
  rejectArguments(tool: string, problems: string[]): CallToolResult;
  /** The result of a successful call: the value as JSON text, plus structuredContent under an outputSchema. */
  toolResult(tool: string, value: unknown): CallToolResult;
  /** Fields added to the SDK's initialize result (dashdash §3.1.1). */
  initializeExtras(): Record<string, unknown>;
  /** The dashdash ai_help method (§3.3). */
  aiHelp(params: Record<string, unknown>): Record<string, unknown>;
  /** The Tool Card served at /.well-known/mcp-tools/<tool>.json, if there is one. */
  toolCard(tool: string): unknown;
  /** Over Streamable HTTP: whether DELETE ends the session (then its id is answered 404). */
  endsOnDelete(): boolean;
  /** Over HTTP: whether a foreign Host or Origin is refused (DNS rebinding protection). */
  validatesOrigin(): boolean;
  /** Over Streamable HTTP: whether a request without Mcp-Session-Id (other than initialize) is refused with 400. */
  requiresSessionId(): boolean;
  /** Whether ping is answered (MCP: with an empty result). */
  answersPing(): boolean;
  /** Over HTTP in 2026-07-28, where there is no session: whose grants a request holds. */
  modernHttpGrants(): ModernHttpGrants;
  /** The tool a call's name means: exactly the listed one of that name (§4.3), or none. */
  toolNamed(name: string): string;
  /** prompts/list: the reference has no prompts, but answers the list it declares. */
  listPrompts(): Array<{ name: string; description?: string }>;
  /** A 2026-07-28 answer as it leaves the server (`resultType`, caching fields and error codes in place). */
  modernAnswer(method: string, answer: JsonObject): JsonObject;
  /**
   * The tool form of the resource as tools/list shows it (DESIGN: a tools-only client's way in), or undefined for none.
   */
  descriptionsTool(): Record<string, unknown> | undefined;
  /**
   * A call of the tool form: what a read of the same selection answers, and grants (its errors thrown as JSON-RPC
   * errors).
   */
  callDescriptionsTool(
    args: Record<string, unknown>,
    state: SessionState,
    disclosed: Catalog,
  ): CallToolResult | Promise<CallToolResult>;
  /**
   * Over HTTP: a session begins (its state is new) and ends (DELETE, or its transport closed). The reference keeps
   * nothing beyond a session.
   */
  sessionStarted(state: SessionState): void;
  sessionEnded(state: SessionState): void;
}
