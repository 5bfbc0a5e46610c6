/**
 * DNS rebinding protection (MCP transports: servers MUST validate the Origin header; local servers
 * should bind to localhost). A page on another site can make a browser send requests to
 * 127.0.0.1 under its own name: its Host and Origin then name that site, never a loopback name.
 */
import { hostname, networkInterfaces } from 'node:os';

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** Whether the address a server binds is a loopback one (then Host is checked too). */
export function isLoopbackAddress(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Why a request must be refused (a line for the 403), or undefined when its Host and Origin are
 * this server's own. Host: a loopback name — or, bound to another address (`bindHost`), that
 * address, this machine's own names and addresses, or the host of an allowed origin — with this
 * port or none. Origin, when sent: a loopback page, this very server, or an origin allowed explicitly.
 */
export function foreignRequest(
  headers: { host?: string; origin?: string },
  port: number,
  allowedOrigins: readonly string[] = [],
  bindHost = '127.0.0.1',
): string | undefined {
  const names = hostNames(bindHost, allowedOrigins);
  const ours = (host: string | undefined) =>
    host !== undefined && names.some((name) => host === name || host === `${name}:${port}`);
  if (!ours(headers.host))
    return `Host '${clipped(headers.host ?? '')}' is not this server${isLoopbackAddress(bindHost) ? ' (a local one)' : ''}`;
  if (headers.origin === undefined) return undefined;
  if (allowedOrigins.includes(headers.origin)) return undefined;
  let host: string | undefined;
  try {
    host = new URL(headers.origin).host;
  } catch {
    host = undefined;
  }
  const local = host !== undefined && LOOPBACK.some((name) => host === name || host === `${name}:${port}`);
  return local || host === headers.host
    ? undefined
    : `Origin '${clipped(headers.origin)}' is not allowed (--allowed-origin adds one)`;
}

/** The names a request's Host may give for a server bound to `bindHost`. */
function hostNames(bindHost: string, allowedOrigins: readonly string[]): string[] {
  if (isLoopbackAddress(bindHost)) return LOOPBACK;
  const own = Object.values(networkInterfaces()).flatMap((list) =>
    (list ?? []).map((i) => (i.family === 'IPv6' ? `[${i.address}]` : i.address)),
  );
  const allowed = allowedOrigins.flatMap((o) => {
    try {
      return [new URL(o).hostname];
    } catch {
      return [];
    }
  });
  const bound =
    bindHost === '0.0.0.0' || bindHost === '::' ? [] : [bindHost.includes(':') ? `[${bindHost}]` : bindHost];
  return [...new Set([...LOOPBACK, ...bound, ...own, hostname(), ...allowed])];
}

/** What a server bound to `bindHost` accepts, said once at start-up. */
export function acceptedOn(bindHost: string, port: number, allowedOrigins: readonly string[]): string {
  const hosts = isLoopbackAddress(bindHost)
    ? 'a loopback name'
    : `this machine's names and addresses${allowedOrigins.length ? " and the allowed origins' hosts" : ''}`;
  const origins = ['none (clients that are not browsers)', `a page of this server's own origin`, ...allowedOrigins];
  return `Host: ${hosts}, with port ${port} or none; Origin: ${origins.join(', ')} (--allowed-origin adds one)`;
}

function clipped(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
