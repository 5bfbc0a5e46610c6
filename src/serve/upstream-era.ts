// `serve` speaks 2025-11-25 to its upstream by default; an upstream that speaks 2026-07-28 only
// refuses initialize. This transport stands between the hub and the upstream and, for such a
// server, turns the hub's 2025 conversation into 2026 requests: initialize becomes server/discover,
// every request gets the `_meta` envelope, ping is answered here, and 2026's result fields go.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LEGACY_ERA, META, MODERN_ERA, withEnvelope, type Era } from '../transport/era.js';
import type { JsonObject } from '../transport/types.js';

/** Which era `serve` speaks to its upstream: the first it answers (`all`: 2025-11-25 first), or the one given. */
export type UpstreamProtocol = 'all' | Era;

/** The id of the server/discover sent in place of initialize (never the hub's: its ids are plain). */
const DISCOVER_ID = '\u0000upstream-discover';
/** Fields 2026-07-28 adds to every result, which a 2025 client does not know. */
const MODERN_RESULT_FIELDS = ['resultType', 'ttlMs', 'cacheScope'];

export class UpstreamEra implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** The era spoken with the upstream, once its first initialize was answered. */
  era: Era | undefined;
  /** The hub's initialize, while the upstream has not answered it. */
  private initialize: JsonObject | undefined;
  private clientInfo: { name: string; version: string } = { name: 'mcp-pd-check serve', version: '0' };
  private capabilities: JsonObject = {};

  constructor(
    private readonly inner: Transport,
    private readonly protocol: UpstreamProtocol = 'all',
  ) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message) => this.fromUpstream(message);
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (err) => this.onerror?.(err);
    await this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  async send(raw: JSONRPCMessage): Promise<void> {
    const message = raw as unknown as JsonObject;
    const isRequest = typeof message.method === 'string' && message.id !== undefined;
    if (isRequest && message.method === 'initialize' && this.era === undefined) return this.open(message);
    if (this.era !== MODERN_ERA) return this.inner.send(raw);
    if (!isRequest) {
      // 2026 has no initialized notification.
      if (message.method !== 'notifications/initialized') await this.inner.send(raw);
      return;
    }
    // ping is gone in 2026-07-28; the proxy itself is alive, which is what a client asks.
    if (message.method === 'ping') return this.deliver({ jsonrpc: '2.0', id: message.id, result: {} });
    await this.inner.send({
      ...message,
      params: withEnvelope(message.params as JsonObject | undefined, this.clientInfo, this.capabilities),
    } as JSONRPCMessage);
  }

  /** The hub's first initialize: as it is in 2025-11-25 (unless told 2026), else server/discover. */
  private async open(initialize: JsonObject): Promise<void> {
    this.initialize = initialize;
    const params = (initialize.params ?? {}) as JsonObject;
    if (isClientInfo(params.clientInfo)) this.clientInfo = params.clientInfo;
    if (typeof params.capabilities === 'object' && params.capabilities !== null)
      this.capabilities = params.capabilities as JsonObject;
    if (this.protocol === MODERN_ERA) return this.discover();
    try {
      await this.inner.send(initialize as unknown as JSONRPCMessage);
    } catch (err) {
      // Over HTTP a refused initialize may be an error status, thrown by the transport.
      if (this.protocol !== 'all') throw err;
      await this.discover();
    }
  }

  private discover(): Promise<void> {
    this.era = MODERN_ERA;
    return this.inner.send({
      jsonrpc: '2.0',
      id: DISCOVER_ID,
      method: 'server/discover',
      params: withEnvelope({}, this.clientInfo, this.capabilities),
    });
  }

  private fromUpstream(message: JsonObject): void {
    const initialize = this.initialize;
    if (initialize && message.method === undefined) {
      if (message.id === initialize.id && this.era === undefined) {
        if (message.error !== undefined && this.protocol === 'all') {
          void this.discover().catch(() => this.deliver(message));
          return;
        }
        this.era = LEGACY_ERA;
        this.initialize = undefined;
        return this.deliver(message);
      }
      if (message.id === DISCOVER_ID) {
        this.initialize = undefined;
        return this.deliver(this.initializeAnswer(initialize, message));
      }
    }
    if (
      this.era === MODERN_ERA &&
      message.method === undefined &&
      typeof message.result === 'object' &&
      message.result !== null
    ) {
      const result = { ...(message.result as JsonObject) };
      for (const field of MODERN_RESULT_FIELDS) delete result[field];
      return this.deliver({ ...message, result });
    }
    this.deliver(message);
  }

  /** server/discover's answer as the answer to the hub's initialize. */
  private initializeAnswer(initialize: JsonObject, discovered: JsonObject): JsonObject {
    if (discovered.error !== undefined) return { jsonrpc: '2.0', id: initialize.id, error: discovered.error };
    const result = (discovered.result ?? {}) as JsonObject;
    const versions = Array.isArray(result.supportedVersions) ? result.supportedVersions : [];
    if (!versions.includes(MODERN_ERA)) {
      return {
        jsonrpc: '2.0',
        id: initialize.id,
        error: {
          code: -32602,
          message: `the upstream server speaks neither ${LEGACY_ERA} nor ${MODERN_ERA} (it supports ${versions.join(', ') || 'no version'})`,
        },
      };
    }
    const meta = typeof result._meta === 'object' && result._meta !== null ? { ...(result._meta as JsonObject) } : {};
    const serverInfo = meta[META.serverInfo] ?? { name: 'unknown server', version: '0' };
    delete meta[META.serverInfo];
    const asked = ((initialize.params ?? {}) as JsonObject).protocolVersion;
    return {
      jsonrpc: '2.0',
      id: initialize.id,
      result: {
        // The client's own version when it is one of the session era's (the proxy speaks any of them).
        protocolVersion:
          typeof asked === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(asked) && asked < MODERN_ERA ? asked : LEGACY_ERA,
        capabilities: result.capabilities ?? {},
        serverInfo,
        ...(typeof result.instructions === 'string' ? { instructions: result.instructions } : {}),
        ...(Object.keys(meta).length ? { _meta: meta } : {}),
      },
    };
  }

  private deliver(message: JsonObject): void {
    this.onmessage?.(message as unknown as JSONRPCMessage);
  }
}

function isClientInfo(value: unknown): value is { name: string; version: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { version?: unknown }).version === 'string'
  );
}
