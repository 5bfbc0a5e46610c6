// The proxy between clients and one upstream server: every message passes through untouched
// except what progressive disclosure changes (tools/list, the tool_descriptions resource, calls of
// unfetched tools). Every id on the upstream side is serve's own — requests, progress tokens,
// server-to-client requests — mapped per client both ways, so that many clients share one upstream
// and none sees, answers or steers another's traffic.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  answerRead,
  answerToolForm,
  DESCRIPTIONS_RESOURCE,
  gateCall,
  readResult,
  toolFormResult,
} from '../protocol/server/disclosure.js';
import { EraFront } from '../protocol/server/era-front.js';
import { Disclosed, type DescriptionFolder, type Tool } from './descriptions.js';
import { checkClientMessage, errorReply, INVALID_PARAMS, type Id, type Message } from './validate.js';
import { Routes, type Client } from './routes.js';
import { SharedInitialize } from './shared-initialize.js';
import { UpstreamLink } from './upstream-link.js';

const RESOURCE_NOT_FOUND = -32002;

export interface HubOptions {
  /**
   * How long a request forwarded upstream may wait for its answer (ms): then its client gets an error and the upstream
   * a cancellation.
   */
  timeoutMs?: number;
  /** Whether serve offers the tool form of the resource (default true). */
  toolForm?: boolean;
  /** Told of errors that do not stop the proxy. */
  onError?: (err: Error) => void;
  /** The upstream as errors name it (its command, or its URL; secrets masked). */
  upstreamName?: string;
}

export class Hub {
  private readonly routes = new Routes();
  private readonly link: UpstreamLink;
  private readonly initialization: SharedInitialize;
  private upstreamInitialized = false;
  private disclosed?: Promise<Disclosed>;
  private listingError?: Error;
  private readonly toolForm: boolean;
  private readonly onError: (err: Error) => void;

  /** Settles with the first listing of the upstream's tools (an InputError when the folder does not match it). */
  readonly firstListing: Promise<void>;
  private settleFirst!: (err?: Error) => void;

  constructor(
    upstream: Transport,
    private readonly folder?: DescriptionFolder,
    options: HubOptions = {},
  ) {
    this.toolForm = options.toolForm ?? true;
    this.onError = options.onError ?? (() => {});
    this.link = new UpstreamLink(upstream, this.routes, {
      timeoutMs: options.timeoutMs ?? 300_000,
      upstreamName: options.upstreamName ? `the upstream server (${options.upstreamName})` : 'the upstream server',
      onError: this.onError,
      onToolsChanged: () => (this.disclosed = undefined),
    });
    this.initialization = new SharedInitialize(this.link, this.toolForm, this.onError);
    this.firstListing = new Promise((resolve, reject) => {
      this.settleFirst = (err) => (err ? reject(err) : resolve());
    });
    this.firstListing.catch(() => {});
  }

  /**
   * Attaches a client transport (stdio: the one client; HTTP: one per Mcp-Session-Id), of either
   * protocol era: its first request says which, and a 2026-07-28 client is answered as that era
   * wants. Every message it sends is checked before anything else; what is not one is answered here.
   */
  attach(transport: Transport, options: { gated?: boolean } = {}): Client {
    const toClient = (message: unknown, related?: Id) =>
      void transport
        .send(message as JSONRPCMessage, related !== undefined ? { relatedRequestId: related } : undefined)
        .catch((err: Error) => this.onError(err));
    const front = new EraFront({
      toServer: (message) => this.handle(client, message),
      toClient,
      // The listing and the resource list are the same for every client; a read is the client's own.
      cacheScope: (method) => (method === 'resources/read' ? 'private' : 'public'),
    });
    const client = this.routes.add({
      send: async (message, related) => front.fromServer(message, related),
      gated: options.gated ?? true,
    });
    transport.onmessage = (raw) => {
      const checked = checkClientMessage(raw);
      if (checked.kind === 'invalid') {
        if (checked.reply) toClient(checked.reply);
        return;
      }
      front.fromClient(checked.message);
    };
    // A session that ends takes its grants with it; what it still waited for upstream is cancelled.
    transport.onclose = () => this.link.leave(client);
    return client;
  }

  /**
   * Answers one 2026-07-28 request that came without a session (Streamable HTTP): a client of its
   * own for the one request, not gated (no grant could outlive it), gone once answered — or once
   * `cancelled` settles (its connection closed: in 2026-07-28 a disconnect is a cancellation).
   */
  answerAlone(request: Message, cancelled?: Promise<void>): Promise<Message | undefined> {
    return new Promise((resolve) => {
      const alone: Transport = {
        start: async () => {},
        close: async () => {
          alone.onclose?.();
        },
        send: async (raw) => {
          const message = raw as unknown as Message;
          if (message.method === undefined && message.id === request.id) {
            resolve(message);
            void alone.close();
          }
        },
      };
      this.attach(alone, { gated: false });
      void cancelled?.then(() => {
        resolve(undefined);
        void alone.close();
      });
      alone.onmessage!(request as JSONRPCMessage);
    });
  }

  /** The upstream has ended: every request still waiting gets an error saying so, and later ones at once. */
  upstreamGone(reason: string): void {
    this.link.gone(reason);
  }

  /** The upstream's tools, disclosed; loaded once, and again after tools/list_changed. */
  tools(): Promise<Disclosed> {
    if (!this.disclosed) {
      const disclosed = this.listUpstream().then((tools) => new Disclosed(tools, this.folder, this.toolForm));
      disclosed.then(
        () => this.settleFirst(),
        (err: Error) => {
          this.listingError = err;
          this.settleFirst(err);
          this.disclosed = undefined;
        },
      );
      this.disclosed = disclosed;
    }
    return this.disclosed;
  }

  private async listUpstream(): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: unknown;
    for (let page = 0; page < 1000; page++) {
      const reply = await this.link.request('tools/list', cursor === undefined ? {} : { cursor });
      if (reply.error)
        throw new Error(`the upstream server's tools/list failed: ${JSON.stringify(reply.error).slice(0, 200)}`);
      const result = reply.result as { tools?: unknown[]; nextCursor?: unknown };
      for (const t of result.tools ?? []) if (t && typeof (t as Tool).name === 'string') tools.push(t as Tool);
      cursor = result.nextCursor;
      if (typeof cursor !== 'string' || !cursor) break;
    }
    return tools;
  }

  /** A client's checked message (or one its era's front made for it). */
  private handle(client: Client, message: Message): void {
    void this.fromClient(client, message).catch((err: Error) => {
      // A listing that failed is said once, by whoever awaits firstListing.
      if (err !== this.listingError) this.onError(err);
      if (message.id !== undefined && message.method !== undefined)
        void client.send(errorReply(message.id, -32603, err.message)).catch(() => {});
    });
  }

  private async fromClient(client: Client, message: Message): Promise<void> {
    const { method, id } = message;
    if (method === undefined) {
      // An answer to a request the upstream sent: only from the client it was sent to, under serve's id for it.
      const asked = this.routes.answered(client, id!);
      if (asked !== undefined) await this.link.send({ ...message, id: asked });
      return;
    }
    if (id === undefined) return this.clientNotification(client, message);
    const reply = (result: unknown) => client.send({ jsonrpc: '2.0', id, result });
    const fail = (code: number, text: string, data?: unknown) =>
      client.send({ jsonrpc: '2.0', id, error: { code, message: text, ...(data !== undefined ? { data } : {}) } });
    switch (method) {
      case 'initialize':
        return this.initialization.initialize(client, message);
      case 'tools/list':
        // Stage 1 (§3.1): the minimal list, whole, in every state of the session.
        return reply({ tools: (await this.tools()).minimal });
      case 'resources/templates/list': {
        // The resource as a template a client can fill in (`?tools=`), then the upstream's own.
        const template = {
          uriTemplate: `${DESCRIPTIONS_RESOURCE.uri}{?tools}`,
          name: 'Tool descriptions',
          description: 'Full descriptions of the named tools (comma-separated): fetch one before calling its tool.',
          mimeType: 'application/json',
        };
        if (!this.initialization.upstreamResources) return reply({ resourceTemplates: [template] });
        return this.link.forward(client, message, (answer) => {
          // An upstream that has resources but no templates: ours alone.
          if (answer.error) return { jsonrpc: '2.0', id: answer.id, result: { resourceTemplates: [template] } };
          const result = answer.result as { resourceTemplates?: unknown[] } | undefined;
          if (message.params?.cursor === undefined && result && Array.isArray(result.resourceTemplates))
            result.resourceTemplates = [template, ...result.resourceTemplates];
          return answer;
        });
      }
      case 'resources/read': {
        // The server side of progressive disclosure, as the reference server runs it: exactly the
        // requested names (§4.4, §6.3); a read grants exactly what it returned.
        const uri = String(message.params?.uri);
        const answer = answerRead(uri, await this.tools());
        if (answer.kind === 'not-this-resource') {
          // An upstream without resources of its own would say "Method not found": the resource is unknown.
          if (this.initialization.upstreamResources === false)
            return fail(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`);
          return this.link.forward(client, message, notFoundInEra);
        }
        if (answer.kind === 'refused') return fail(answer.error.code, answer.error.message, answer.error.data);
        for (const name of answer.grants) client.grants.add(name);
        return reply(readResult(uri, answer.body));
      }
      case 'resources/list':
        return this.listResources(client, message);
      case 'resources/subscribe':
      case 'resources/unsubscribe':
        this.routes.subscribe(client, String(message.params?.uri), method === 'resources/subscribe');
        break;
      case 'tools/call': {
        // Only a listed tool, by its exact name, reaches the upstream (a loose upstream would take
        // a near name for it), and a listed tool not fetched in this session never does.
        const name = String(message.params?.name);
        const disclosed = await this.tools();
        if (!disclosed.full(name)) return fail(INVALID_PARAMS, `Unknown tool: ${JSON.stringify(name).slice(0, 130)}`);
        if (name === disclosed.descriptionsTool) {
          // The tool form of the resource: what a read of the same selection answers, and grants.
          const answer = answerToolForm(message.params?.arguments, disclosed);
          if (answer.kind === 'refused') return fail(answer.error.code, answer.error.message, answer.error.data);
          if (answer.kind !== 'answer') return fail(INVALID_PARAMS, `Unknown tool: ${name}`);
          for (const granted of answer.grants) client.grants.add(granted);
          return reply(toolFormResult(answer));
        }
        const refused = gateCall(
          name,
          disclosed,
          (tool) => !client.gated || client.grants.has(tool),
          disclosed.descriptionsTool,
        );
        if (refused) return reply(refused);
        break;
      }
    }
    await this.link.forward(client, message);
  }

  /** resources/list: the tool_descriptions resource first, then the upstream's own (if it has any). */
  private async listResources(client: Client, message: Message): Promise<void> {
    const ours = { ...DESCRIPTIONS_RESOURCE };
    if (!this.initialization.upstreamResources) {
      await client.send({ jsonrpc: '2.0', id: message.id!, result: { resources: [ours] } });
      return;
    }
    const first = message.params?.cursor === undefined;
    await this.link.forward(client, message, (reply) => {
      const result = reply.result as { resources?: unknown[] } | undefined;
      if (first && result && Array.isArray(result.resources)) result.resources = [ours, ...result.resources];
      return reply;
    });
  }

  /**
   * A client's notification: the upstream's initialized once, a cancellation of the client's own request, a change of
   * its roots.
   */
  private async clientNotification(client: Client, message: Message): Promise<void> {
    switch (message.method) {
      case 'notifications/initialized':
        client.initialized = true;
        // The upstream was initialized once, by the first client.
        if (this.upstreamInitialized) return;
        this.upstreamInitialized = true;
        break;
      case 'notifications/cancelled': {
        const upstreamId = this.routes.upstreamIdOf(client, message.params?.requestId);
        if (upstreamId === undefined) return;
        this.routes.settle(upstreamId);
        message = { ...message, params: { ...message.params, requestId: upstreamId } };
        break;
      }
      case 'notifications/roots/list_changed':
        break;
      default:
        // Progress of a client's answer, or a notification of its own: no other client's business.
        return;
    }
    await this.link.send(message);
  }
}

/**
 * A resource the upstream does not know, in the error code of the session era (-32002; a
 * 2026-07-28 client's front makes it -32602): upstreams say -32002, -32602, or -32603 with a
 * "not found" message, whichever era they speak.
 */
function notFoundInEra(reply: Message): Message {
  const error = reply.error as { code?: unknown; message?: unknown } | undefined;
  if (!error) return reply;
  const notFound =
    error.code === RESOURCE_NOT_FOUND ||
    error.code === INVALID_PARAMS ||
    (error.code === -32603 && /not found|unknown|does not exist|no such/i.test(String(error.message)));
  return notFound ? { ...reply, error: { ...error, code: RESOURCE_NOT_FOUND } } : reply;
}
