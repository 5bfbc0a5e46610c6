// Servers that live in a test itself, spoken to as real ones are: the reference server with some
// behaviour replaced (over the SDK's in-memory transport), or a scripted JSON-RPC handler. The same
// McpSession and run code sits on top as over stdio or HTTP; no process is spawned.
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  behaviourWith,
  createReferenceServer,
  newSessionState,
  type Behaviour,
} from '../../reference-server/server.js';
import { Redactor } from '../safety/redact.js';
import { PooledTarget, type HttpGetResult } from '../transport/target.js';
import type { JsonObject, Wire } from '../transport/types.js';
import type { Era } from '../transport/era.js';

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
export class InProcessWire implements Wire {
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
export class InProcessTarget extends PooledTarget {
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
