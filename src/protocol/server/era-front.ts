// A server written for 2025-11-25 (initialize, then requests) made to answer 2026-07-28 clients
// too: the era is read from the first message of a connection, and a 2026 client's requests are
// turned into what the server knows (a quiet initialize first) and its answers into 2026 results.
// The reference server and `serve` both stand behind it.
import { eraOfRequest, LEGACY_ERA, META, MODERN_ERA, type Era } from '../../transport/era.js';
import type { JsonObject } from '../../transport/types.js';

/** Results that a 2026 client may cache, and so carry `ttlMs` and `cacheScope`. */
const CACHEABLE = new Set([
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
  'resources/read',
]);
/** Methods of 2025-11-25 that 2026-07-28 no longer has (subscriptions/listen replaced resources/subscribe). */
const GONE = new Set(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);
/**
 * The id of the initialize the front sends for a 2026 client (never a client's id: those are numbers or plain strings).
 */
const OPENING_ID = '\u0000era-front-initialize';

export interface EraFrontOptions {
  /**
   * Where the server's messages go (to the client); `related` is the client's request a notification or request is
   * about.
   */
  toClient(message: JsonObject, related?: string | number): void;
  /** Where the client's messages go (to the 2025 server). */
  toServer(message: JsonObject): void;
  /** Whether 2026-07-28 clients are served (a 2025-only server: false). */
  modern?: boolean;
  /** Whether 2025-11-25 clients are served (a 2026-only server: false). */
  legacy?: boolean;
  /** What `cacheScope` this server's cacheable results say (default `private`: they may depend on the client). */
  cacheScope?(method: string): 'public' | 'private';
  /** A last say on each 2026 answer (by its request's method) before it leaves. */
  amend?(method: string, answer: JsonObject): JsonObject;
}

/**
 * One connection's front. Its era is fixed by the first request: initialize makes it 2025-11-25,
 * a request with the 2026 envelope (or server/discover) 2026-07-28, as the SDK v2 does over stdio.
 */
export class EraFront {
  era: Era | undefined;
  private opening: JsonObject | undefined;
  private waiting: JsonObject[] = [];
  private readonly methods = new Map<string, string>();

  constructor(private readonly options: EraFrontOptions) {}

  fromClient(message: JsonObject): void {
    const method = typeof message.method === 'string' ? message.method : undefined;
    const isRequest = method !== undefined && message.id !== undefined && message.id !== null;
    if (this.era === undefined && isRequest) {
      const era = eraOfRequest(message) ?? (method === 'initialize' ? LEGACY_ERA : undefined);
      if (era === MODERN_ERA && this.options.modern !== false) this.startModern(message);
      else if (era === LEGACY_ERA && this.options.legacy === false)
        return this.refuse(
          message,
          -32602,
          `Unsupported protocol version: this server speaks ${MODERN_ERA} only (send server/discover)`,
        );
      else this.era = LEGACY_ERA;
    }
    if (this.era !== MODERN_ERA) return this.options.toServer(message);
    if (!isRequest) {
      // 2026 clients send no initialized notification; the front sent one of its own.
      if (method !== 'notifications/initialized') this.options.toServer(message);
      return;
    }
    this.methods.set(key(message.id), method);
    if (!this.opening) {
      this.waiting.push(message);
      return;
    }
    this.answerModern(message, method);
  }

  fromServer(message: JsonObject, related?: string | number): void {
    if (this.era !== MODERN_ERA) return this.options.toClient(message, related);
    if (message.id === OPENING_ID) {
      this.opening = (message.result as JsonObject | undefined) ?? {};
      for (const m of this.waiting.splice(0)) this.answerModern(m, m.method as string);
      return;
    }
    const method =
      message.id !== undefined && message.method === undefined ? this.methods.get(key(message.id)) : undefined;
    if (method === undefined) return this.options.toClient(message, related);
    this.methods.delete(key(message.id));
    this.toModernClient(method, this.modernAnswer(method, message));
  }

  private toModernClient(method: string, answer: JsonObject): void {
    this.options.toClient(this.options.amend ? this.options.amend(method, answer) : answer);
  }

  /** A 2026 client's first request: the server gets a quiet initialize first (its answer is the front's). */
  private startModern(first: JsonObject): void {
    this.era = MODERN_ERA;
    const meta = ((first.params as JsonObject | undefined)?._meta ?? {}) as JsonObject;
    const clientInfo = meta[META.clientInfo] ?? { name: 'unknown 2026-07-28 client', version: '0' };
    this.options.toServer({
      jsonrpc: '2.0',
      id: OPENING_ID,
      method: 'initialize',
      params: { protocolVersion: LEGACY_ERA, capabilities: meta[META.clientCapabilities] ?? {}, clientInfo },
    });
    this.options.toServer({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  private answerModern(message: JsonObject, method: string): void {
    if (method === 'server/discover') {
      this.methods.delete(key(message.id));
      const { protocolVersion: _v, serverInfo, capabilities, ...rest } = this.opening!;
      const meta = typeof rest._meta === 'object' && rest._meta !== null ? (rest._meta as JsonObject) : {};
      return this.toModernClient(method, {
        jsonrpc: '2.0',
        id: message.id,
        result: {
          ...rest,
          supportedVersions: this.options.legacy === false ? [MODERN_ERA] : [MODERN_ERA, LEGACY_ERA],
          capabilities: capabilities ?? {},
          resultType: 'complete',
          ttlMs: 0,
          cacheScope: 'public',
          _meta: { ...meta, [META.serverInfo]: serverInfo },
        },
      });
    }
    if (GONE.has(method)) {
      this.methods.delete(key(message.id));
      return this.refuse(message, -32601, `Method not found: ${method} (not in ${MODERN_ERA})`);
    }
    this.options.toServer(message);
  }

  /** A 2025 answer as 2026 gives it: resultType, caching fields, and -32602 for an unknown resource. */
  private modernAnswer(method: string, message: JsonObject): JsonObject {
    const error = message.error as JsonObject | undefined;
    if (error) {
      return method === 'resources/read' && error.code === -32002
        ? { ...message, error: { ...error, code: -32602 } }
        : message;
    }
    const result = (message.result ?? {}) as JsonObject;
    const cache = CACHEABLE.has(method) ? { ttlMs: 0, cacheScope: this.options.cacheScope?.(method) ?? 'private' } : {};
    return { ...message, result: { ...result, resultType: 'complete', ...cache } };
  }

  private refuse(message: JsonObject, code: number, text: string): void {
    this.options.toClient({ jsonrpc: '2.0', id: message.id, error: { code, message: text } });
  }
}

function key(id: unknown): string {
  return typeof id === 'string' ? `s:${id}` : `n:${String(id)}`;
}
