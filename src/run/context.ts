import type { Era } from '../transport/era.js';
import type { Fact } from '../core/check.js';
import { FindingSink, type RuleProblem } from '../core/findings.js';
import { StopCheck } from '../core/execute.js';
import type { FindingLevel } from '../generated/report.js';
import type { Messages } from '../core/messages.js';
import type { Exchange, JsonObject } from '../transport/types.js';
import type { OpenOptions, Target } from '../transport/target.js';
import type { McpSession } from '../transport/session.js';
import type { CallIntent, CallRecord, NotCalled } from './call-ledger.js';
import { reachedTool } from '../protocol/calls.js';
import type { Descriptions, RunFacts, UnfetchedCalls } from './facts.js';
import type { LiveOptions } from './options.js';
import type { Run } from './run.js';
import type { ToolFacts } from './tools.js';

/** Codes of the prerequisites every live check may lack (reported by the helpers below). */
export const CONTEXT_MESSAGES = {
  'not-testable':
    "Not testable: no tool_descriptions resource answers (none is listed, no refusal names one, and resource:///tool_descriptions does not work), so {what} cannot be tested (the root cause is pd-resource-listed's finding).",
  'nothing-to-read': 'Nothing to check: the run read no {what}.',
  'no-tools': { message: 'tools/list returned no tools to call.', hint: 'List your tools in tools/list.' },
  'safe-calls-no-tool': '--safe-calls is on and no tool is marked read-only, so no tool may be called.',
} as const satisfies Messages;

export type ContextCode = keyof typeof CONTEXT_MESSAGES;

/**
 * What a live check sees: the facts it declared it reads (each frozen once its phase made it),
 * the run's options, sessions of its own (closed by the runner once the run no longer needs
 * them), the one door for calls, and the finding API it reports through. One per check for the
 * whole run: what its work left for the end of the run and what the model finds later report here
 * too, and its result is built once, at the end.
 */
export class LiveContext<C extends string = string> extends FindingSink<C | ContextCode> {
  private readonly opened: McpSession[] = [];
  /** Work to do once every other check has run (its sessions stay open until then). */
  readonly deferred: Array<() => Promise<void>> = [];

  /**
   * `labels`: the names of the sessions it opens, from the session plan (s1, s2… in check order),
   * so that a session has the same name in every run whatever the timing.
   */
  constructor(
    private readonly run: Run,
    private readonly check: { id: string; reads?: readonly Fact[]; clean?: boolean },
    messages: Messages,
    failLevel: FindingLevel,
    private readonly labels: string[] = [],
  ) {
    super({ ...CONTEXT_MESSAGES, ...messages }, failLevel);
  }

  private reads(fact: Fact): void {
    if (!(this.check.reads ?? []).includes(fact))
      throw new Error(`check ${this.check.id} reads '${fact}' but does not declare it in reads`);
  }

  /** The facts this check declared it reads. */
  get facts(): Pick<RunFacts, 'discovery'> & {
    readonly unfetched: UnfetchedCalls;
    readonly descriptions: Descriptions;
    readonly traffic: readonly McpSession[];
  } {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const ctx = this;
    const run = this.run;
    return {
      discovery: run.discovery,
      get unfetched() {
        ctx.reads('unfetched-calls');
        return run.unfetched!;
      },
      get descriptions() {
        ctx.reads('descriptions');
        return run.descriptions!;
      },
      get traffic() {
        ctx.reads('traffic');
        return run.target.sessionsStarted();
      },
    };
  }

  get discovery(): RunFacts['discovery'] {
    return this.run.discovery;
  }

  /** What the run knows of each tool (with the full descriptions, for a check that reads them). */
  get tools(): ToolFacts {
    return this.run.tools;
  }

  /** The run's settings a check reads of its own (budgets, --cards, --require, --sessions). */
  get options(): LiveOptions {
    return this.run.plan.settings;
  }

  get target(): Target {
    return this.run.target;
  }

  /**
   * A new, initialized session with no authorizations — or, for a check with a turn where the run
   * shares a session (over stdio), the shared session P once the checks before it are done with it
   * (what they left in it, the model knows).
   */
  async session(options?: OpenOptions): Promise<McpSession> {
    const shared = this.run.shared;
    if (shared?.takes(this.check.id)) return shared.take(this.check.id, () => this.run.open(options, 'p1'));
    const session = await this.run.open(options, this.labels.shift());
    this.opened.push(session);
    return session;
  }

  /** Whether this check's new session is the run's shared session (its turn there, over stdio). */
  get sharesSession(): boolean {
    return this.run.shared?.takes(this.check.id) === true;
  }

  /** `n` sessions opened in parallel. */
  sessions(n: number): Promise<McpSession[]> {
    return Promise.all(Array.from({ length: n }, () => this.session()));
  }

  /**
   * The run's session in which nothing is ever fetched: for calls of tools not fetched (never read descriptions in it).
   */
  cleanSession(): Promise<McpSession> {
    if (!this.check.clean)
      throw new Error(`check ${this.check.id} uses the clean session but does not declare clean: true`);
    return this.run.cleanSession();
  }

  /**
   * The probe session, shared by checks: it holds every grant once the descriptions were fetched; read resources in it.
   */
  probe(): McpSession {
    return this.run.probe;
  }

  /**
   * Calls `tool` in `session` through the run's door (the harm rules, DESIGN "Calling tools");
   * undefined when it may not be called (`whyNotCalled` says why). `entry`: the full description
   * the session fetched, whose examples are the arguments.
   */
  call(
    session: McpSession,
    tool: string,
    request: { intent?: CallIntent; entry?: JsonObject } = {},
  ): Promise<Exchange | undefined> {
    this.reads('unfetched-calls');
    return this.run.door.call(session, tool, { by: this.check.id, ...request });
  }

  /** A read through the tool form of the resource (the tool the server marks; `names` undefined: no selection). */
  readThroughTool(session: McpSession, names: string[] | undefined): Promise<Exchange> {
    const form = this.run.discovery.descriptionsTool;
    if (!form) throw new Error(`check ${this.check.id} reads through the tool form, but the server marks none`);
    return this.run.door.readThroughTool(session, form.name, names);
  }

  /** Every call of `tool` the run made so far (each check's, the phases', the exploration's), in order. */
  callsOfRun(tool: string): readonly CallRecord[] {
    return this.run.door.ledger.calls.filter((c) => c.tool === tool);
  }

  /** The calls the door made for this check so far. */
  callsMade(): CallRecord[] {
    return this.run.door.ledger.calls.filter((c) => c.by === this.check.id);
  }

  /**
   * Ends the check as not proven when every request it meant to judge got no answer (`answers`: the
   * exchanges; nothing happens when one was answered, or when none was meant to be made): a slow tool, or one
   * that needs the network, says nothing about progressive disclosure (DESIGN, "When a proof is
   * inconclusive").
   */
  unprovenIfSilent(what: string, answers: readonly Exchange[]): void {
    if (answers.some((ex) => !ex.noResponse || reachedTool(ex))) return;
    if (answers.length) this.skip('unproven', { what, note: answers[0].note ?? answers[0].noResponse });
    // None made: when the door declined them because those tools gave no answer before (in another
    // check), nothing was proven either.
    const declined = this.run.door.ledger.refusedToCall.find(
      (n) => n.by === this.check.id && (n.because === 'no-answer' || n.because === 'ran-long'),
    );
    if (declined)
      this.skip('unproven', {
        what,
        note:
          this.run.door.ledger.unanswered.get(declined.tool) ??
          this.run.door.ledger.ranLong.get(declined.tool) ??
          declined.why,
      });
  }

  /**
   * Says once per check that something it meant to judge got no answer (`ex`), so was not judged
   * (DESIGN, "When a proof is inconclusive"); later ones of the same check are not repeated.
   */
  inconclusiveOnce(subject: string, ex: Exchange, tool?: string): void {
    if (this.findings.some((f) => f.code === 'inconclusive')) return;
    this.add(
      'info',
      'inconclusive',
      { subject: subject[0].toUpperCase() + subject.slice(1), note: ex.note ?? ex.noResponse ?? 'no response' },
      { ...(tool !== undefined ? { location: { tool } } : {}), transcript: [ex] },
    );
  }

  /**
   * An earlier call of the run in which `tool` ran (was let through and did not refuse its arguments), if there was
   * one.
   */
  earlierRun(tool: string): Exchange | undefined {
    return this.run.door.ledger.calls.find(
      (c) => c.tool === tool && c.outcome.kind === 'authorized' && !c.argumentsRefused,
    )?.exchange;
  }

  /** Whether a call of `tool` got no answer earlier in the run (the door calls it no more). */
  gaveNoAnswer(tool: string): boolean {
    return this.run.door.ledger.unanswered.has(tool);
  }

  /** Whether any part of the run has called `tool` in a session that had not fetched it. */
  calledUnfetched(tool: string): boolean {
    return this.run.door.ledger.calls.some((c) => c.tool === tool && !c.fetched && !c.nearName);
  }

  /** Why the door did not call `tool` for this check. */
  whyNotCalled(tool: string): string {
    return this.run.door.ledger.whyNotCalled(tool, this.check.id)?.why ?? '';
  }

  /** Why the door did not call `tool` for this check, as a reason code (undefined: it called it). */
  notCalledBecause(tool: string): NotCalled['because'] | undefined {
    return this.run.door.ledger.whyNotCalled(tool, this.check.id)?.because;
  }

  /**
   * The tool_descriptions URI: listed, else found from a refusal or the spec's default. Without
   * one the criterion cannot be tested: the check is skipped, saying so in one line (the missing
   * resource is pd-resource-listed's one finding).
   */
  resourceUriOrSkip(what: string): string {
    const resource = this.facts.descriptions.resource;
    if (resource) return resource.uri;
    this.skip('not-testable', { what });
  }

  /**
   * The tools this check may call (read-only ones under --safe-calls; names with a comma cannot be
   * fetched), read-only ones first. Ends the check when there is none: a skip under --safe-calls,
   * else a failure.
   */
  toolsToCallOrStop(): string[] {
    const tools = this.tools.order(this.tools.callable());
    if (tools.length) return tools;
    if (this.tools.safeCallsOnly) this.skip('safe-calls-no-tool');
    this.fail('no-tools');
    throw new StopCheck();
  }

  /** A rule's problems about a tool's value (its entry, its description…), located by tool and pointer. */
  problems(
    tool: string | undefined,
    problems: RuleProblem[],
    extras: { base?: string; transcript?: Exchange[] } = {},
  ): void {
    for (const p of problems) {
      const pointer = (extras.base ?? '') + p.pointer;
      this.problem(p, {
        location: { ...(tool !== undefined ? { tool } : {}), ...(pointer ? { pointer } : {}) },
        transcript: extras.transcript,
      });
    }
  }

  /** A GET on the target's own origin (checks with `needs: 'http'` only: the runner sees to it). */
  httpGet(path: string): ReturnType<NonNullable<Target['get']>> {
    if (!this.target.get) throw new Error("httpGet needs an HTTP target; declare needs: 'http'");
    return this.target.get(path);
  }

  /** One POST to the MCP endpoint outside any session (checks with `needs: 'http'` only). */
  httpProbe(message: JsonObject, headers: Record<string, string>): ReturnType<NonNullable<Target['probe']>> {
    if (!this.target.probe) throw new Error("httpProbe needs an HTTP target; declare needs: 'http'");
    return this.target.probe(message, headers);
  }

  /** How the target is spoken to, once known (over HTTP: Streamable HTTP or legacy SSE). */
  /** The protocol era of this run. */
  get era(): Era {
    return this.target.era;
  }

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

  /** The sessions this check opened (the exploration may reuse those that hold nothing). */
  get sessionsOpened(): readonly McpSession[] {
    return this.opened;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.opened.map((s) => s.close()));
  }
}

export { StopCheck };
