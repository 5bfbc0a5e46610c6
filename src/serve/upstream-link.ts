// serve's side of the upstream: every id there is serve's own — requests it forwards for a client,
// its own requests, progress tokens, the upstream's requests to a client — each with a timer, so
// that a request the upstream never answers is an error for its client and a cancellation upstream.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorReply, isUpstreamMessage, type Id, type Message } from './validate.js';
import type { Client, Routes } from './routes.js';

const OWN = 'mcp-pd-serve:';
/** An error of the MCP SDKs for a request that timed out. */
const REQUEST_TIMEOUT = -32001;
const METHOD_NOT_FOUND = -32601;

export interface UpstreamLinkOptions {
  /** How long a request sent upstream may wait for its answer (ms). */
  timeoutMs: number;
  /** The upstream as errors name it ("the upstream server (its command)"). */
  upstreamName: string;
  onError: (err: Error) => void;
  /** The upstream said its tools changed (notifications/tools/list_changed). */
  onToolsChanged: () => void;
}

export class UpstreamLink {
  private readonly own = new Map<string, (message: Message) => void>();
  private next = 0;
  /** Why the upstream is gone, once it is: requests then get this at once. */
  private goneWhy?: string;
  private readonly timeoutMs: number;
  private readonly upstreamName: string;
  private readonly onError: (err: Error) => void;
  private readonly onToolsChanged: () => void;

  constructor(
    private readonly upstream: Transport,
    private readonly routes: Routes,
    options: UpstreamLinkOptions,
  ) {
    this.timeoutMs = options.timeoutMs;
    this.upstreamName = options.upstreamName;
    this.onError = options.onError;
    this.onToolsChanged = options.onToolsChanged;
    upstream.onmessage = (message) => this.fromUpstream(message);
  }

  /** A message to the upstream as it is (a notification, an answer under serve's id for it). */
  send(message: Message): Promise<void> {
    return this.upstream.send(message as JSONRPCMessage);
  }

  /** The upstream has ended: every request still waiting gets an error saying so, and later ones at once. */
  gone(reason: string): void {
    this.goneWhy ??= reason;
    for (const [upstreamId, pending] of this.routes.pendingEntries()) {
      this.routes.settle(upstreamId);
      const reply = errorReply(
        pending.id,
        -32603,
        `${capital(this.upstreamName)} ${reason} before answering ${pending.method}.`,
      );
      pending.failed?.(reply);
      void pending.client.send(reply).catch(() => {});
    }
  }

  /**
   * A request of the proxy's own to the upstream (ids of its own: never a client's); an error answer when none comes in
   * time.
   */
  request(method: string, params: Record<string, unknown>): Promise<Message> {
    const id = `${OWN}${this.next++}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.own.delete(id);
        resolve(
          errorReply(
            id,
            REQUEST_TIMEOUT,
            `${this.upstreamName} did not answer ${method} within ${Math.round(this.timeoutMs / 1000)} s (serve --request-timeout)`,
          ),
        );
      }, this.timeoutMs);
      timer.unref?.();
      this.own.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      this.upstream.send({ jsonrpc: '2.0', id, method, params }).catch((err: Error) => {
        this.own.get(id)?.(errorReply(id, -32603, err.message));
        this.own.delete(id);
      });
    });
  }

  /**
   * Sends a client request upstream under an id (and a progress token) of the proxy's; the reply goes back under the
   * client's.
   */
  async forward(
    client: Client,
    message: Message,
    rewrite: (reply: Message) => Message = (r) => r,
    failed?: (reply: Message) => void,
  ): Promise<void> {
    if (this.goneWhy) {
      failed?.(errorReply(message.id, -32603, `${capital(this.upstreamName)} ${this.goneWhy}.`));
      await client.send(errorReply(message.id, -32603, `${capital(this.upstreamName)} ${this.goneWhy}.`));
      return;
    }
    const upstreamId = `${this.next++}`;
    const meta = message.params?._meta as Record<string, unknown> | undefined;
    const token = meta?.progressToken as Id | undefined;
    const ownToken = token === undefined ? undefined : this.routes.progressToken(client, token, message.id!);
    const timer = setTimeout(() => this.timedOut(upstreamId), this.timeoutMs);
    timer.unref?.();
    this.routes.forwarded(upstreamId, {
      client,
      id: message.id!,
      method: message.method!,
      rewrite,
      timer,
      ...(ownToken !== undefined ? { token: ownToken } : {}),
      ...(failed ? { failed } : {}),
    });
    const params =
      ownToken === undefined ? message.params : { ...message.params, _meta: { ...meta, progressToken: ownToken } };
    await this.upstream.send({
      ...message,
      id: upstreamId,
      ...(params !== undefined ? { params } : {}),
    } as JSONRPCMessage);
  }

  /** No answer in time: the client gets an error, the upstream a cancellation. */
  private timedOut(upstreamId: string): void {
    const pending = this.routes.settle(upstreamId);
    if (!pending) return;
    const seconds = Math.round(this.timeoutMs / 1000);
    const reply = errorReply(
      pending.id,
      REQUEST_TIMEOUT,
      `Request timed out: ${this.upstreamName} did not answer ${pending.method} within ${seconds} s (serve --request-timeout)`,
    );
    pending.failed?.(reply);
    void pending.client.send(reply).catch(() => {});
    void this.upstream
      .send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: upstreamId, reason: `no answer within ${seconds} s` },
      })
      .catch(() => {});
  }

  /** A client that went away: its requests in flight are cancelled upstream, requests asked of it refused. */
  leave(client: Client): void {
    const { pending, asked } = this.routes.remove(client);
    for (const upstreamId of pending)
      void this.upstream
        .send({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: upstreamId, reason: 'the client went away' },
        })
        .catch(() => {});
    for (const upstreamId of asked)
      void this.upstream
        .send(errorReply(upstreamId, -32603, 'The client asked went away before it answered.') as JSONRPCMessage)
        .catch(() => {});
  }

  private fromUpstream(raw: unknown): void {
    if (!isUpstreamMessage(raw)) return;
    const message = raw;
    const { id, method } = message;
    if (method === undefined) {
      const key = String(id);
      const own = this.own.get(key);
      if (own) {
        this.own.delete(key);
        own(message);
        return;
      }
      const pending = this.routes.settle(key);
      if (pending)
        void pending.client
          .send(pending.rewrite({ ...message, id: pending.id }))
          .catch((err: Error) => this.onError(err));
      return;
    }
    if (id !== undefined) return this.serverRequest(message as Message & { id: Id; method: string });
    if (method === 'notifications/tools/list_changed') this.onToolsChanged();
    for (const { client, message: out, related } of this.routes.notificationTargets(
      message as Message & { method: string },
    )) {
      void client.send(out, related).catch((err: Error) => this.onError(err));
    }
  }

  /**
   * A request from the upstream (sampling, elicitation, roots): to the one client it can be for,
   * under an id of serve's own. Ping is answered here; one that could be for several clients is
   * refused rather than guessed (it would show one client's business to another).
   */
  private serverRequest(message: Message & { id: Id; method: string }): void {
    if (message.method === 'ping') {
      void this.upstream.send({ jsonrpc: '2.0', id: message.id, result: {} }).catch(() => {});
      return;
    }
    const routed = this.routes.ask(message, `${OWN}a${this.next++}`);
    if ('reason' in routed) {
      void this.upstream
        .send(
          errorReply(
            message.id,
            METHOD_NOT_FOUND,
            `serve cannot route ${message.method}: ${routed.reason}`,
          ) as JSONRPCMessage,
        )
        .catch(() => {});
      return;
    }
    void routed.client.send(routed.message, routed.related).catch((err: Error) => this.onError(err));
  }
}

export function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
