// The check tester (after ESLint's RuleTester): a live check run in-process against a server that
// lives in the test itself — the reference server with some behaviour replaced (over the SDK's
// in-memory transport), or a scripted JSON-RPC handler — with no process spawned. Each invalid
// case names the exact codes it must produce.
import type { Test } from 'tap';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  behaviourWith,
  createReferenceServer,
  newSessionState,
  type Behaviour,
} from '../../reference-server/server.js';
import type { LiveCheck } from '../../src/run/check.js';
import type { LiveOptions } from '../../src/run/options.js';
import type { CheckReport, CheckResult } from '../../src/generated/report.js';
import { checkTarget } from '../../src/run/live.js';
import { runPlan } from '../../src/run/run-plan.js';
import { Redactor } from '../../src/safety/redact.js';
import { DEFAULT_EXPLORE } from '../../src/model/explore/defaults.js';
import { PooledTarget, type HttpGetResult } from '../../src/transport/target.js';
import type { JsonObject, Wire } from '../../src/transport/types.js';
import type { Era } from '../../src/transport/era.js';

/** A scripted server: answers each request (undefined: no answer), per session. */
export type Script = (
  message: JsonObject,
  session: number,
) =>
  { result: unknown } | { error: unknown } | undefined | Promise<{ result: unknown } | { error: unknown } | undefined>;

/** What a case runs against: the reference with overrides, or a script. */
export type InProcessServer =
  | { reference: Partial<Behaviour>; kind?: 'stdio' | 'http'; era?: Era }
  | { script: Script; kind?: 'stdio' | 'http'; era?: Era };

/** A Wire over an in-process transport or script: the same McpSession code runs on top. */
class InProcessWire implements Wire {
  readonly describe = 'in-process server';
  private messageHandler: (m: JsonObject) => void = () => {};
  private closeHandlers: Array<(reason: string) => void> = [];
  private closed = false;

  constructor(
    private readonly deliver: (m: JsonObject) => Promise<void>,
    private readonly end: () => Promise<void>,
  ) {}

  static async reference(overrides: Partial<Behaviour>): Promise<InProcessWire> {
    const [client, server] = InMemoryTransport.createLinkedPair();
    // Sessions of one process, from one address, as the reference's HTTP server has them.
    const behaviour = behaviourWith(overrides);
    const state = { ...newSessionState(0), peer: '127.0.0.1' };
    behaviour.sessionStarted(state);
    await createReferenceServer(overrides, { fetchLimit: 0, state }).connect(server);
    const wire = new InProcessWire(
      (m) => client.send(m as never),
      async () => {
        await client.close();
        behaviour.sessionEnded(state);
      },
    );
    client.onmessage = (m) => wire.messageHandler(JSON.parse(JSON.stringify(m)) as JsonObject);
    await client.start();
    return wire;
  }

  static script(script: Script, session: number): InProcessWire {
    const wire: InProcessWire = new InProcessWire(
      async (m) => {
        if (m.id === undefined || m.id === null || typeof m.method !== 'string') return;
        const reply = await script(m, session);
        if (reply && !wire.closed) queueMicrotask(() => wire.messageHandler({ jsonrpc: '2.0', id: m.id, ...reply }));
      },
      async () => {},
    );
    return wire;
  }

  send(message: JsonObject): Promise<void> {
    return this.closed ? Promise.resolve() : this.deliver(message);
  }
  onMessage(handler: (m: JsonObject) => void): void {
    this.messageHandler = handler;
  }
  onGarbage(): void {}
  onClose(handler: (reason: string) => void): void {
    this.closeHandlers.push(handler);
  }
  stderrTail(): string[] {
    return [];
  }
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.end();
    for (const h of this.closeHandlers) h('the session was closed');
  }
}

/** Sessions of an in-process server; `kind: 'http'` also serves the reference's Tool Cards. */
class InProcessTarget extends PooledTarget {
  readonly kind: 'stdio' | 'http';
  readonly cheapSessions = true;
  readonly describe = 'in-process server';
  private count = 0;

  constructor(
    private readonly server: InProcessServer,
    timeoutMs: number,
  ) {
    // The era the checker speaks to it (default 2025-11-25); the reference answers either.
    super({ timeoutMs, redactor: new Redactor(), ...(server.era ? { era: server.era } : {}) });
    this.kind = server.kind ?? 'stdio';
    if (this.kind === 'http') this.get = (path) => this.wellKnown(path);
  }

  protected startWire(): Promise<Wire> {
    const n = ++this.count;
    return 'reference' in this.server
      ? InProcessWire.reference(this.server.reference)
      : Promise.resolve(InProcessWire.script(this.server.script, n));
  }

  get?: (path: string) => Promise<HttpGetResult>;

  private async wellKnown(path: string): Promise<HttpGetResult> {
    const url = `http://in-process${path}`;
    const tool = /^\/\.well-known\/mcp-tools\/(.+)\.json$/.exec(path)?.[1];
    const card =
      tool && 'reference' in this.server
        ? behaviourWith(this.server.reference).toolCard(decodeURIComponent(tool))
        : undefined;
    return card === undefined
      ? { url, status: 404, body: 'not found' }
      : { url, status: 200, contentType: 'application/json', body: JSON.stringify(card) };
  }
}

/** A fixed seed: the same exploration, and so the same findings, on every run of the tests. */
const DEFAULTS: LiveOptions = {
  timeoutMs: 2000,
  sessions: 3,
  safeCalls: false,
  require: [],
  seed: 20261123,
  explore: DEFAULT_EXPLORE,
};

/** Runs checks in-process against a server; the report is what the CLI would build. */
export function runInProcess(
  checks: readonly LiveCheck[],
  server: InProcessServer,
  options: Partial<LiveOptions> = {},
): Promise<CheckReport> {
  const live = { ...DEFAULTS, ...options };
  const target = new InProcessTarget(server, live.timeoutMs);
  return checkTarget(target, runPlan(checks, live, target.cheapSessions === true), {});
}

/** The distinct codes of a result's errors and warnings, sorted ('more-findings' only counts the rest). */
export function codesOf(result: CheckResult | undefined): string[] {
  return [
    ...new Set(
      (result?.findings ?? []).filter((f) => f.level !== 'info' && f.code !== 'more-findings').map((f) => f.code),
    ),
  ].sort();
}

export interface ValidCase {
  name: string;
  server: InProcessServer;
  options?: Partial<LiveOptions>;
  status?: 'pass' | 'skip';
}
export interface InvalidCase {
  name: string;
  server: InProcessServer;
  options?: Partial<LiveOptions>;
  codes: string[];
  /**
   * It breaks a rule of the model: the exploration shows the shortest sequence that breaks it (at most this many
   * steps).
   */
  shortest?: number;
  /** The check cannot be proven against it: it ends skipped with this reason (and `codes` is empty). */
  notProven?: string;
}

/**
 * Valid cases must pass (or skip, where said); each invalid case must produce exactly its codes
 * (errors and warnings), and every finding must render without a leftover placeholder.
 */
export async function testCheck(
  t: Test,
  check: LiveCheck,
  cases: { valid: ValidCase[]; invalid: InvalidCase[] },
): Promise<void> {
  for (const c of cases.valid) {
    const report = await runInProcess([check], c.server, c.options);
    const result = report.results[0];
    t.equal(result.status, c.status ?? 'pass', `${check.id} valid: ${c.name} (${JSON.stringify(codesOf(result))})`);
  }
  for (const c of cases.invalid) {
    const report = await runInProcess([check], c.server, c.options);
    const result = report.results[0];
    t.same(
      codesOf(result),
      [...c.codes].sort(),
      `${check.id} invalid: ${c.name} gives exactly ${c.codes.join(', ') || 'no failure'}`,
    );
    if (c.notProven) {
      t.equal(result.status, 'skip', `${check.id} invalid: ${c.name} is not proven`);
      t.ok(
        result.findings.some((f) => f.code === c.notProven),
        `${check.id} invalid: ${c.name} says why: ${c.notProven}`,
      );
    }
    if (c.shortest !== undefined) {
      const sequence = result.findings.find((f) => f.sequence)?.sequence;
      t.ok(
        sequence && sequence.steps.length <= c.shortest,
        `${check.id} invalid: ${c.name}: its shortest sequence has at most ${c.shortest} steps:\n${sequence?.steps.join('\n') ?? '(none)'}`,
      );
    }
    for (const f of result.findings) {
      t.notMatch(f.message, /\{[A-Za-z_]\w*(\|[^}]*)?\}/, `every placeholder is filled: ${f.message}`);
    }
  }
}
