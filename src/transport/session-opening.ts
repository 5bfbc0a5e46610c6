// How a session opens — initialize (2025-11-25) or server/discover (2026-07-28) — and, when it does
// not, why in words: a refusal of the era, a server that failed, one that never answered.
import type { Exchange, JsonObject } from './types.js';
import { SlowStartError, TargetUnavailableError } from './types.js';
import { clip, asText } from '../util/text.js';
import { LEGACY_ERA, META, MODERN_ERA, type Era } from './era.js';
import { timesOf } from './exchange-times.js';
import { telling } from './server-words.js';
import { TOOL_VERSION } from '../util/version.js';

/**
 * The protocol version the checker asks for. Kept here rather than imported from the SDK's types
 * module, whose load costs ~0.2 s of every run; a test keeps it equal to the SDK's latest.
 */
export const PROTOCOL_VERSION = LEGACY_ERA;

/** How the checker names itself to servers. */
export const CLIENT_INFO = { name: 'mcp-pd-check', version: TOOL_VERSION };

/**
 * The server answered the opening request (initialize, server/discover) with an error, or said it
 * does not speak the era: the target is up, it speaks another era.
 */
export class EraRefusedError extends TargetUnavailableError {
  override name = 'EraRefusedError';
}

/**
 * The server failed the opening request with an HTTP server error (5xx) or 429: it may well speak
 * the era, it could not answer now (a JSON-RPC error in such a response is no refusal of the era).
 */
export class ServerFailedError extends TargetUnavailableError {
  override name = 'ServerFailedError';
}

/** What opening needs of its session. */
export interface OpeningPort {
  era: Era;
  clientInfo: { name: string; version: string };
  /** A request with the start-up allowance (see McpSession.request). */
  request(method: string, params: JsonObject): Promise<Exchange>;
  notify(method: string): Promise<void>;
  /** Over HTTP, the status of the first response (undefined: none yet, or not HTTP). */
  firstStatus(): number | undefined;
  setProtocolVersion(version: string): void;
  /** Why the opening request failed, in words (describeOpeningFailure with the session's facts). */
  failure(ex: Exchange): string;
}

/** Opens the session in its era: initialize's result, or server/discover's. Throws TargetUnavailableError. */
export async function openSession(port: OpeningPort): Promise<JsonObject> {
  if (port.era === MODERN_ERA) return discover(port);
  const ex = await port.request('initialize', {
    protocolVersion: PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: port.clientInfo,
  });
  const result = ex.response?.result;
  if (!result || typeof result !== 'object') {
    throw ex.noResponse === 'timeout'
      ? new SlowStartError(port.failure(ex))
      : openingError(port, port.failure(ex), ex.response?.error !== undefined);
  }
  const version = (result as JsonObject).protocolVersion;
  if (typeof version === 'string') port.setProtocolVersion(version);
  await port.notify('notifications/initialized');
  return result as JsonObject;
}

/**
 * Why the opening request failed, as its error: a refusal of the era, a server that failed (HTTP 5xx, 429), or none
 * there.
 */
function openingError(port: OpeningPort, error: string, refused: boolean): TargetUnavailableError {
  const status = port.firstStatus();
  if (status !== undefined && (status >= 500 || status === 429))
    return new ServerFailedError(error.includes(`HTTP ${status}`) ? error : `${error} (HTTP ${status})`);
  return refused ? new EraRefusedError(error) : new TargetUnavailableError(error);
}

/**
 * The opening of a 2026-07-28 client: server/discover, which must list 2026-07-28 among its
 * supported versions. Nothing else is sent first, and there is no session to end.
 */
async function discover(port: OpeningPort): Promise<JsonObject> {
  const ex = await port.request('server/discover', {});
  const result = ex.response?.result as JsonObject | undefined;
  if (!result || typeof result !== 'object') {
    if (ex.noResponse === 'timeout' && port.firstStatus() === undefined) throw new SlowStartError(port.failure(ex));
    // Over HTTP a server of the other era may answer with a plain 4xx (401/403 are about credentials),
    // or fail on a method it does not know (500): that is its not speaking this era. A 503 or 429
    // (no room, too many requests) says nothing of the era: the run cannot check it now.
    const status = port.firstStatus();
    if (status === 500 || status === 501)
      throw new EraRefusedError(
        `${port.failure(ex)} (HTTP ${status} to server/discover: a server that does not know the method)`,
      );
    throw openingError(
      port,
      port.failure(ex),
      ex.response?.error !== undefined ||
        (status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403),
    );
  }
  const versions = Array.isArray(result.supportedVersions) ? result.supportedVersions : [];
  if (!versions.includes(MODERN_ERA)) {
    throw new EraRefusedError(
      `the server answered server/discover without ${MODERN_ERA} among its supportedVersions (${versions.map(String).join(', ') || 'none'})`,
    );
  }
  const meta = typeof result._meta === 'object' && result._meta !== null ? (result._meta as JsonObject) : {};
  const serverInfo = meta[META.serverInfo] ?? result.serverInfo;
  return { ...result, protocolVersion: MODERN_ERA, ...(serverInfo !== undefined ? { serverInfo } : {}) };
}

/** What a session knows that says why its opening failed. */
export interface OpeningFacts {
  /** The process's last lines on stderr (none for an HTTP wire: its problems are already the note). */
  stderr?: string[];
  garbage: readonly string[];
  strayReplies: readonly string[];
  timeoutMs: number;
  startupTimeoutMs: number | undefined;
  startupOption: string | undefined;
  /** When the connection attempt that led to the opening request began. */
  connectingSince: number | undefined;
  /** Whether the server has said anything yet. */
  heard: boolean;
}

export function describeOpeningFailure(ex: Exchange, facts: OpeningFacts): string {
  // A proxy's own lines (mcp-pd-check serve) are not the server's words.
  const said = facts.stderr ? telling(facts.stderr.filter((l) => !/^mcp-pd-check serve:/.test(l))) : undefined;
  const last = said && !ex.note?.includes('it said on stderr') ? `; it said on stderr: "${clip(said, 200)}"` : '';
  const garbage = facts.garbage.length
    ? `; it wrote non-JSON to stdout: "${clip(facts.garbage[0], 120)}"`
    : facts.strayReplies.length
      ? `; it answered under an id that no request had: ${clip(facts.strayReplies[0], 120)}`
      : '';
  const opening = ex.method;
  if (ex.noResponse === 'closed') return `no answer to ${opening}: ${ex.note}${last}${garbage}`;
  if (ex.noResponse === 'timeout') {
    // The time really waited: this request's limit, plus what the connection attempt had spent
    // before it (starting the wire, another transport tried first).
    const limit = Number(ex.note?.match(/(\d+) ms/)?.[1] ?? facts.timeoutMs);
    const before = Math.max(0, (timesOf(ex)?.sent ?? 0) - (facts.connectingSince ?? Infinity));
    // The configured limit is said as configured (a start-up allowance covers the whole connection
    // attempt); time spent before a request's own limit is said apart, so the message never
    // depends on the machine's speed except in the part that measures it.
    const starting = facts.startupTimeoutMs !== undefined && !facts.heard;
    const allowance = starting ? ` (${facts.startupOption ?? '--startup-timeout'})` : '';
    const within = starting ? facts.startupTimeoutMs! : limit;
    const earlier = !starting && before >= 100 ? `; ${Math.round(before)} ms had gone to connecting before it` : '';
    const wrote = ex.note?.match(/ and (wrote .*)$/)?.[1];
    return `the server did not answer ${opening} within ${within} ms${allowance}${wrote ? `; it ${wrote}` : ''}${garbage}${wrote ? '' : last}${earlier}`;
  }
  const error = ex.response?.error as JsonObject | undefined;
  if (error) return `the server refused ${opening}: ${clip(asText(error.message ?? JSON.stringify(error)), 200)}`;
  return `the server answered ${opening} without a result object`;
}
