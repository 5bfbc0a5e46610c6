// Whose is what, on the upstream side of `serve`: each request forwarded (serve's id → the client's
// request), each progress token (serve's → the client's), each request the upstream asked a client
// (serve's id → the upstream's), each resource subscription. Nothing the upstream sends about one
// client's request reaches another client.
import type { Id, Message } from './validate.js';

/** One client session: where its answers go and its grants (§5.1: per session, for its lifetime). */
export interface Client {
  /**
   * To the client, through its era's front (a 2026-07-28 client gets 2026 answers). `related` is
   * the client's request it is about: over HTTP it goes on that request's stream, in order with
   * its answer (on the standalone stream a late progress could follow the answer, and be dropped).
   */
  send(message: Message, related?: Id): Promise<void>;
  grants: Set<string>;
  initialized: boolean;
  /**
   * Whether calls of unfetched tools are refused: not for a 2026-07-28 request over HTTP, which has no session to keep
   * a grant in.
   */
  gated: boolean;
}

export interface Pending {
  client: Client;
  /** The client's own id of the request. */
  id: Id;
  method: string;
  /** What the hub changes in the answer on its way back (initialize, resources/list). */
  rewrite: (reply: Message) => Message;
  timer: NodeJS.Timeout;
  /** serve's progress token for it, if the client gave one. */
  token?: string;
  /** Told when no answer will come (it timed out, the upstream ended, the client left): the error its client got. */
  failed?: (reply: Message) => void;
}

/** A message of the upstream for one client, and the client's request it is about, if any. */
export interface Target {
  client: Client;
  message: Message;
  related?: Id;
}

/** Notifications that say something of the whole server, for every client: lists changed. */
const FOR_EVERY_CLIENT = /^notifications\/(tools|resources|prompts)\/list_changed$/;

export class Routes {
  private readonly clients = new Set<Client>();
  private readonly pending = new Map<string, Pending>();
  /** serve's progress token → the client, its own token and the id of its request that gave it. */
  private readonly progress = new Map<string, { client: Client; token: Id; requestId: Id }>();
  /** serve's id of a request the upstream asked → the client asked and the upstream's id. */
  private readonly asked = new Map<string, { client: Client; upstreamId: Id }>();
  private readonly subscriptions = new Map<Client, Set<string>>();
  private tokens = 0;

  add(init: Pick<Client, 'send' | 'gated'>): Client {
    const client: Client = { ...init, grants: new Set(), initialized: false };
    this.clients.add(client);
    return client;
  }

  /** A client goes away: what it waited for upstream, and what the upstream waits for from it (upstream ids). */
  remove(client: Client): { pending: string[]; asked: Id[] } {
    this.clients.delete(client);
    this.subscriptions.delete(client);
    const pending = [...this.pending].filter(([, p]) => p.client === client).map(([upstreamId]) => upstreamId);
    for (const upstreamId of pending)
      this.settle(upstreamId)?.failed?.({
        jsonrpc: '2.0',
        id: upstreamId,
        error: { code: -32603, message: 'The client went away before the upstream server answered.' },
      });
    const asked: Id[] = [];
    for (const [own, a] of this.asked) {
      if (a.client !== client) continue;
      this.asked.delete(own);
      asked.push(a.upstreamId);
    }
    return { pending, asked };
  }

  forwarded(upstreamId: string, pending: Pending): void {
    this.pending.set(upstreamId, pending);
  }

  /** The request answered (or given up): its bookkeeping goes. */
  settle(upstreamId: string): Pending | undefined {
    const pending = this.pending.get(upstreamId);
    if (!pending) return undefined;
    this.pending.delete(upstreamId);
    clearTimeout(pending.timer);
    if (pending.token !== undefined) this.progress.delete(pending.token);
    return pending;
  }

  pendingEntries(): Array<[string, Pending]> {
    return [...this.pending];
  }

  /** The upstream id of a client's own request still in flight. */
  upstreamIdOf(client: Client, requestId: unknown): string | undefined {
    return [...this.pending].find(([, p]) => p.client === client && p.id === requestId)?.[0];
  }

  /** serve's progress token for a client's token (it goes with the request it came with: `Pending.token`). */
  progressToken(client: Client, token: Id, requestId: Id): string {
    const own = `mcp-pd-serve:p${this.tokens++}`;
    this.progress.set(own, { client, token, requestId });
    return own;
  }

  subscribe(client: Client, uri: string, on: boolean): void {
    const set = this.subscriptions.get(client) ?? this.subscriptions.set(client, new Set()).get(client)!;
    if (on) set.add(uri);
    else set.delete(uri);
  }

  /**
   * Where a request of the upstream goes: the one client with requests in flight upstream (it can
   * only be about one of them), else the one client there is. Several: it is refused, not guessed.
   */
  ask(message: Message & { id: Id }, own: string): Target | { reason: string } {
    const client = this.soleClient();
    if ('reason' in client) return client;
    this.asked.set(own, { client: client.client, upstreamId: message.id });
    return this.target(client.client, { ...message, id: own });
  }

  /** The upstream id of a request asked of `client` under serve's id `id` (only that client's answer counts), once. */
  answered(client: Client, id: Id): Id | undefined {
    const key = String(id);
    const asked = typeof id === 'string' ? this.asked.get(key) : undefined;
    if (!asked || asked.client !== client) return undefined;
    this.asked.delete(key);
    return asked.upstreamId;
  }

  /**
   * Who gets a notification of the upstream: progress the client whose token it names (under its
   * own token); a cancellation the client asked; a list change every client; a resource update
   * the clients subscribed to it; anything else (a log message) the one client it can be for.
   */
  notificationTargets(message: Message & { method: string }): Target[] {
    const params = message.params ?? {};
    if (message.method === 'notifications/progress') {
      const to = this.progress.get(String(params.progressToken));
      return to && typeof params.progressToken === 'string'
        ? [
            {
              client: to.client,
              message: { ...message, params: { ...params, progressToken: to.token } },
              related: to.requestId,
            },
          ]
        : [];
    }
    if (message.method === 'notifications/cancelled') {
      const own = [...this.asked].find(([, a]) => a.upstreamId === params.requestId);
      if (!own) return [];
      this.asked.delete(own[0]);
      return [{ client: own[1].client, message: { ...message, params: { ...params, requestId: own[0] } } }];
    }
    if (FOR_EVERY_CLIENT.test(message.method)) {
      return [...this.clients]
        .filter((c) => c.initialized || this.clients.size === 1)
        .map((client) => ({ client, message }));
    }
    if (message.method === 'notifications/resources/updated') {
      return [...this.subscriptions]
        .filter(([, uris]) => uris.has(String(params.uri)))
        .map(([client]) => ({ client, message }));
    }
    const sole = this.soleClient();
    return 'client' in sole ? [this.target(sole.client, message)] : [];
  }

  /**
   * A message for a client that is about its request in flight, when it has exactly one (a log line, a sampling
   * request).
   */
  private target(client: Client, message: Message): Target {
    const own = [...this.pending.values()].filter((p) => p.client === client);
    return own.length === 1 ? { client, message, related: own[0].id } : { client, message };
  }

  private soleClient(): { client: Client } | { reason: string } {
    const waiting = [...new Set([...this.pending.values()].map((p) => p.client))];
    if (waiting.length === 1) return { client: waiting[0] };
    if (waiting.length > 1)
      return { reason: `${waiting.length} clients have requests in flight, and nothing says which one it is for` };
    if (this.clients.size === 1) return { client: [...this.clients][0] };
    return {
      reason: this.clients.size
        ? `${this.clients.size} clients are connected and none has a request in flight`
        : 'no client is connected',
    };
  }
}
