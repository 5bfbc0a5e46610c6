// The proxy between clients and one upstream server: every message passes through untouched
// except what progressive disclosure changes (tools/list, the tool_descriptions resource, calls of
// unfetched tools). Request ids are mapped per client, so many clients can share one upstream.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { answerRead, DESCRIPTIONS_RESOURCE, gateCall, readResult } from '../protocol/server/disclosure.js';
import { EraFront } from '../protocol/server/era-front.js';
import type { JsonObject } from '../transport/types.js';
import { Disclosed, type DescriptionFolder, type Tool } from './descriptions.js';

type Message = Record<string, unknown> & { id?: string | number; method?: string; params?: Record<string, unknown> };
type Id = string | number;

const OWN = 'mcp-pd-serve:';

/** One client session: where its answers go and its grants (§5.1: per session, for its lifetime). */
interface Client {
  /** To the client, through its era's front (a 2026-07-28 client gets 2026 answers). */
  send(message: Message): Promise<void>;
  grants: Set<string>;
  initialized: boolean;
  /** Whether calls of unfetched tools are refused: not for a 2026-07-28 request over HTTP, which has no session to keep a grant in. */
  gated: boolean;
}

interface Pending {
  client: Client;
  id: Id;
  method: string;
  /** What the hub changes in the answer on its way back (initialize, resources/list). */
  rewrite: (reply: Message) => Message;
}

export class Hub {
  private readonly clients = new Set<Client>();
  /** Upstream id → the client request it carries. */
  private readonly pending = new Map<string, Pending>();
  /** Progress tokens → the client that sent them. */
  private readonly progress = new Map<unknown, Client>();
  /** Server-to-client requests in flight → the client asked. */
  private readonly asked = new Map<string, Client>();
  private readonly own = new Map<string, (message: Message) => void>();
  private next = 0;
  private initResult?: Record<string, unknown>;
  private initializing?: Promise<Message>;
  private upstreamInitialized = false;
  private disclosed?: Promise<Disclosed>;
  private lastActive?: Client;
  /** Whether the upstream declared resources of its own (else resources/list is answered here). */
  private upstreamResources?: boolean;

  /** Settles with the first listing of the upstream's tools (an InputError when the folder does not match it). */
  readonly firstListing: Promise<void>;
  private settleFirst!: (err?: Error) => void;

  constructor(private readonly upstream: Transport, private readonly folder?: DescriptionFolder, private readonly onError: (err: Error) => void = () => {}) {
    upstream.onmessage = (message) => this.fromUpstream(message as unknown as Message);
    this.firstListing = new Promise((resolve, reject) => {
      this.settleFirst = (err) => (err ? reject(err) : resolve());
    });
    this.firstListing.catch(() => {});
  }

  /**
   * Attaches a client transport (stdio: the one client; HTTP: one per Mcp-Session-Id), of either
   * protocol era: its first request says which, and a 2026-07-28 client is answered as that era wants.
   */
  attach(transport: Transport, options: { gated?: boolean } = {}): void {
    const front = new EraFront({
      toServer: (message) => handle(message as Message),
      toClient: (message) => void transport.send(message as JSONRPCMessage).catch((err: Error) => this.onError(err)),
      // The listing and the resource list are the same for every client; a read is the client's own.
      cacheScope: (method) => (method === 'resources/read' ? 'private' : 'public'),
    });
    const client: Client = { send: async (message) => front.fromServer(message as JsonObject), grants: new Set(), initialized: false, gated: options.gated ?? true };
    this.clients.add(client);
    const handle = (message: Message) => {
      void this.fromClient(client, message).catch((err: Error) => {
        this.onError(err);
        if (message.id !== undefined && message.method !== undefined) {
          void client.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: err.message } }).catch(() => {});
        }
      });
    };
    transport.onmessage = (raw) => front.fromClient(raw as unknown as JsonObject);
    // A session that ends takes its grants with it.
    transport.onclose = () => this.clients.delete(client);
  }

  /**
   * Answers one 2026-07-28 request that came without a session (Streamable HTTP): a client of its
   * own for the one request, not gated (no grant could outlive it), gone once answered.
   */
  answerAlone(request: Message): Promise<Message> {
    return new Promise((resolve) => {
      const alone: Transport = {
        start: async () => {},
        close: async () => { alone.onclose?.(); },
        send: async (raw) => {
          const message = raw as unknown as Message;
          if (message.method === undefined && message.id === request.id) {
            resolve(message);
            void alone.close();
          }
        },
      };
      this.attach(alone, { gated: false });
      alone.onmessage!(request as JSONRPCMessage);
    });
  }

  /** The upstream's tools, disclosed; loaded once, and again after tools/list_changed. */
  tools(): Promise<Disclosed> {
    if (!this.disclosed) {
      const disclosed = this.listUpstream().then((tools) => new Disclosed(tools, this.folder));
      disclosed.then(() => this.settleFirst(), (err: Error) => {
        this.settleFirst(err);
        this.disclosed = undefined;
      });
      this.disclosed = disclosed;
    }
    return this.disclosed;
  }

  private async listUpstream(): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: unknown;
    for (let page = 0; page < 1000; page++) {
      const reply = await this.request('tools/list', cursor === undefined ? {} : { cursor });
      if (reply.error) throw new Error(`the upstream server's tools/list failed: ${JSON.stringify(reply.error).slice(0, 200)}`);
      const result = reply.result as { tools?: unknown[]; nextCursor?: unknown };
      for (const t of result.tools ?? []) if (t && typeof (t as Tool).name === 'string') tools.push(t as Tool);
      cursor = result.nextCursor;
      if (typeof cursor !== 'string' || !cursor) break;
    }
    return tools;
  }

  /** A request of the proxy's own to the upstream (ids of its own: never a client's). */
  private request(method: string, params: Record<string, unknown>): Promise<Message> {
    const id = `${OWN}${this.next++}`;
    return new Promise((resolve, reject) => {
      this.own.set(id, resolve);
      this.upstream.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage).catch(reject);
    });
  }

  private async fromClient(client: Client, message: Message): Promise<void> {
    this.lastActive = client;
    const { method, id } = message;
    if (method === undefined) {
      // A client's answer to a server-to-client request: back to the upstream as it was asked.
      if (id !== undefined) this.asked.delete(String(id));
      await this.upstream.send(message as JSONRPCMessage);
      return;
    }
    if (id === undefined) return this.clientNotification(client, message);
    const reply = (result: unknown) => client.send({ jsonrpc: '2.0', id, result });
    const fail = (code: number, text: string, data?: unknown) => client.send({ jsonrpc: '2.0', id, error: { code, message: text, ...(data !== undefined ? { data } : {}) } });
    switch (method) {
      case 'initialize':
        return this.initialize(client, message);
      case 'tools/list':
        // Stage 1 (§3.1): the minimal list, whole, in every state of the session.
        return reply({ tools: (await this.tools()).minimal });
      case 'resources/read': {
        // The server side of progressive disclosure, as the reference server runs it: exactly the
        // requested names (§4.4, §6.3); a read grants exactly what it returned.
        const uri = String(message.params?.uri ?? '');
        const answer = answerRead(uri, await this.tools());
        if (answer.kind === 'not-this-resource') {
          // An upstream without resources of its own would say "Method not found": the resource is unknown.
          if (this.upstreamResources === false) return fail(-32002, `Resource not found: ${uri}`);
          break;
        }
        if (answer.kind === 'refused') return fail(answer.error.code, answer.error.message, answer.error.data);
        for (const name of answer.grants) client.grants.add(name);
        return reply(readResult(uri, answer.body));
      }
      case 'resources/list':
        return this.listResources(client, message);
      case 'tools/call': {
        // A listed tool not fetched in this session is refused and never reaches the upstream.
        const refused = gateCall(String(message.params?.name ?? ''), await this.tools(), (tool) => !client.gated || client.grants.has(tool));
        if (refused) return reply(refused);
        break;
      }
    }
    await this.forward(client, message);
  }

  /** resources/list: the tool_descriptions resource first, then the upstream's own (if it has any). */
  private async listResources(client: Client, message: Message): Promise<void> {
    const ours = { ...DESCRIPTIONS_RESOURCE };
    if (!this.upstreamResources) {
      await client.send({ jsonrpc: '2.0', id: message.id!, result: { resources: [ours] } });
      return;
    }
    const first = message.params?.cursor === undefined;
    await this.forward(client, message, (reply) => {
      const result = reply.result as { resources?: unknown[] } | undefined;
      if (first && result && Array.isArray(result.resources)) result.resources = [ours, ...result.resources];
      return reply;
    });
  }

  /** The first client's initialize goes upstream; later clients get the same answer. */
  private async initialize(client: Client, message: Message): Promise<void> {
    if (!this.initializing) {
      this.initializing = new Promise((resolve) => {
        void this.forward(client, message, (reply) => {
          resolve(reply);
          return this.amendInitialize(reply);
        }).catch((err: Error) => this.onError(err));
      });
      await this.initializing;
      return;
    }
    const reply = await this.initializing;
    await client.send(this.amendInitialize({ ...reply, id: message.id }));
  }

  /** Declares the resources capability (the tool_descriptions resource needs it) if the upstream lacks it. */
  private amendInitialize(reply: Message): Message {
    const result = reply.result as Record<string, unknown> | undefined;
    if (!result) return reply;
    const capabilities = { ...((result.capabilities ?? {}) as Record<string, unknown>) };
    this.upstreamResources ??= capabilities.resources !== undefined;
    if (capabilities.resources === undefined) capabilities.resources = {};
    this.initResult = { ...result, capabilities };
    return { ...reply, result: this.initResult };
  }

  private async clientNotification(client: Client, message: Message): Promise<void> {
    if (message.method === 'notifications/initialized') {
      client.initialized = true;
      // The upstream was initialized once, by the first client.
      if (this.upstreamInitialized) return;
      this.upstreamInitialized = true;
    }
    if (message.method === 'notifications/cancelled') {
      const requestId = message.params?.requestId as Id | undefined;
      const upstreamId = [...this.pending].find(([, p]) => p.client === client && p.id === requestId)?.[0];
      if (upstreamId === undefined) return;
      message = { ...message, params: { ...message.params, requestId: upstreamId } };
    }
    await this.upstream.send(message as JSONRPCMessage);
  }

  /** Sends a client request upstream under an id of the proxy's; the reply goes back under the client's. */
  private async forward(client: Client, message: Message, rewrite: (reply: Message) => Message = (r) => r): Promise<void> {
    const upstreamId = `${this.next++}`;
    this.pending.set(upstreamId, { client, id: message.id!, method: message.method!, rewrite });
    const token = (message.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
    if (token !== undefined) this.progress.set(token, client);
    await this.upstream.send({ ...message, id: upstreamId } as JSONRPCMessage);
  }

  private fromUpstream(message: Message): void {
    const { id, method } = message;
    if (method === undefined && id !== undefined) {
      const key = String(id);
      const own = this.own.get(key);
      if (own) {
        this.own.delete(key);
        own(message);
        return;
      }
      const pending = this.pending.get(key);
      if (!pending) return;
      this.pending.delete(key);
      void pending.client.send(pending.rewrite({ ...message, id: pending.id })).catch((err: Error) => this.onError(err));
      return;
    }
    if (method === 'notifications/tools/list_changed') this.disclosed = undefined;
    let to: Client[];
    if (id !== undefined) {
      // A server-to-client request (sampling, elicitation, roots): to the client most recently active.
      const client = this.lastActive && this.clients.has(this.lastActive) ? this.lastActive : [...this.clients][0];
      if (!client) return;
      this.asked.set(String(id), client);
      to = [client];
    } else if (method === 'notifications/progress') {
      const client = this.progress.get(message.params?.progressToken);
      to = client ? [client] : [];
    } else {
      to = [...this.clients].filter((c) => c.initialized || this.clients.size === 1);
    }
    for (const client of to) void client.send(message).catch((err: Error) => this.onError(err));
  }
}
