import type { Discovery } from './discovery.js';
import { FindingSink, type RuleProblem } from './findings.js';
import type { Exchange, JsonObject } from '../transport/types.js';
import type { FindingLevel } from '../generated/report.js';
import type { Messages } from './messages.js';
import type { OpenOptions, Target } from '../transport/target.js';
import type { McpSession } from '../transport/session.js';
import { callableTools } from '../pd/calls.js';
import type { CallLedger } from '../pd/call-ledger.js';
import type { RunState } from '../pd/run-state.js';

export interface LiveOptions {
  /** Per-request timeout in ms. */
  timeoutMs: number;
  /** How many parallel sessions pd-session-isolation opens. */
  sessions: number;
  /** Call only tools marked read-only. */
  safeCalls: boolean;
  /** Give destructive tools (annotations.destructiveHint) their example arguments. */
  allowDestructive?: boolean;
  /** Optional extensions that must be present (their absence fails instead of skipping). */
  require: Array<'dashdash' | 'toolcards'>;
  /** A folder of Tool Card files (<tool>.json) to compare with the live tools (`--cards`). */
  cardsDir?: string;
  /** Requests the model-based exploration may send (0: off; default DEFAULT_EXPLORE). */
  explore?: number;
  /** Seed of the exploration (default: a new one, given in the report). */
  seed?: number;
}

/** Codes of the prerequisites every live check may lack (reported by the helpers below). */
export const CONTEXT_MESSAGES = {
  'not-testable': 'Not testable: no tool_descriptions resource answers (none is listed, no refusal names one, and resource:///tool_descriptions does not work), so {what} cannot be tested (the root cause is pd-resource-listed\'s finding).',
  'no-tools': { message: 'tools/list returned no tools to call.', hint: 'List your tools in tools/list.' },
  'safe-calls-no-tool': '--safe-calls is on and no tool is marked read-only, so no tool may be called.',
} as const satisfies Messages;

export type ContextCode = keyof typeof CONTEXT_MESSAGES;

/**
 * What a live check sees: the probe's discovery, the run's options, fresh sessions on demand
 * (closed by the runner when the check ends), and the finding API it reports through.
 */
export class LiveContext<C extends string = string> extends FindingSink<C | ContextCode> {
  private readonly opened: McpSession[] = [];
  /** Work to do once every other check has run (its sessions stay open until then). */
  readonly deferred: Array<() => Promise<void>> = [];

  constructor(
    readonly target: Target,
    readonly discovery: Discovery,
    readonly options: LiveOptions,
    /** The probe session, shared by checks that only read resources (their grants do not matter). */
    private readonly shared: McpSession,
    /** What the checks of the run share: the calls made, the resource's URI, the full descriptions. */
    readonly run: RunState,
    messages: Messages,
    failLevel: FindingLevel,
  ) {
    super({ ...CONTEXT_MESSAGES, ...messages }, failLevel);
  }

  /** A new, initialized session with no authorizations. */
  async session(options?: OpenOptions): Promise<McpSession> {
    const session = await this.target.open(this.run.nextLabel(), options);
    this.opened.push(session);
    return session;
  }

  /** The run's session in which nothing is ever fetched: for calls of tools not fetched (never read descriptions in it). */
  cleanSession(): Promise<McpSession> {
    return this.run.cleanSession();
  }

  /** Calls `tool` in `session` as the run's call plan allows (see RunState.callTool); undefined when it may not. */
  callTool(session: McpSession, tool: string, entry?: JsonObject): Promise<Exchange | undefined> {
    return this.run.callTool(session, tool, entry);
  }

  /** A session for reading resources only: never call tools on it, its grants are not fresh. */
  reader(): McpSession {
    return this.shared;
  }

  /** `n` sessions opened in parallel. */
  sessions(n: number): Promise<McpSession[]> {
    return Promise.all(Array.from({ length: n }, () => this.session()));
  }

  /** Every tool call of the run: what may be called unfetched, with which arguments, and what came of it. */
  get calls(): CallLedger {
    return this.run.calls;
  }

  /**
   * The tool_descriptions URI: listed, else found from a refusal or the spec's default (see
   * RunState). Without one the criterion cannot be tested: the check is skipped, saying so in one
   * line (the missing resource is pd-resource-listed's one finding).
   */
  async resourceUriOrSkip(what: string): Promise<string> {
    const resource = await this.run.resource();
    if (resource) return resource.uri;
    this.skip('not-testable', { what });
  }

  /** The full descriptions of the tools (fetched once per run, in the probe session). */
  fullDescriptions(): Promise<Map<string, JsonObject>> {
    return this.run.fullDescriptions();
  }

  /**
   * The tools this check may call (read-only ones under --safe-calls; names with a comma cannot be
   * fetched). Ends the check when there is none: a skip under --safe-calls, else a failure.
   */
  toolsToCallOrStop(): string[] {
    const tools = callableTools(this.discovery, this.options.safeCalls).filter((n) => !n.includes(','));
    if (tools.length) return tools;
    if (this.options.safeCalls) this.skip('safe-calls-no-tool');
    this.fail('no-tools');
    throw new StopCheck();
  }

  /** A rule's problems about a tool's value (its entry, its description…), located by tool and pointer. */
  problems(tool: string | undefined, problems: RuleProblem[], extras: { base?: string; transcript?: Exchange[] } = {}): void {
    for (const p of problems) {
      const pointer = (extras.base ?? '') + p.pointer;
      this.problem(p, { location: { ...(tool !== undefined ? { tool } : {}), ...(pointer ? { pointer } : {}) }, transcript: extras.transcript });
    }
  }

  /** A GET on the target's own origin (checks with `needs: 'http'` only: the runner sees to it). */
  httpGet(path: string): ReturnType<NonNullable<Target['get']>> {
    if (!this.target.get) throw new Error('httpGet needs an HTTP target; declare needs: \'http\'');
    return this.target.get(path);
  }

  /** One POST to the MCP endpoint outside any session (checks with `needs: 'http'` only). */
  httpProbe(message: JsonObject, headers: Record<string, string>): ReturnType<NonNullable<Target['probe']>> {
    if (!this.target.probe) throw new Error('httpProbe needs an HTTP target; declare needs: \'http\'');
    return this.target.probe(message, headers);
  }

  /** How the target is spoken to, once known (over HTTP: Streamable HTTP or legacy SSE). */
  get transport(): ReturnType<NonNullable<Target['transport']>> | undefined {
    return this.target.transport?.();
  }

  /** The MCP endpoint's URL (HTTP targets only). */
  get endpoint(): URL | undefined {
    return this.target.endpoint;
  }

  /**
   * Runs `work` at the end of the run, after every other check, with this check's sessions still
   * open (a grant must last the whole session); its findings count for this check.
   */
  atEnd(work: () => Promise<void>): void {
    this.deferred.push(work);
  }

  /** Ends the check here; what it found so far stands. */
  stop(): never {
    throw new StopCheck();
  }


  async closeAll(): Promise<void> {
    await Promise.all(this.opened.map((s) => s.close()));
  }
}

/** Ends a check whose prerequisite is missing; its failure is already recorded. */
export class StopCheck extends Error {
  override name = 'StopCheck';
}
