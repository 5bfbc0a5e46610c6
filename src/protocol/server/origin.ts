/**
 * DNS rebinding protection (MCP transports: servers MUST validate the Origin header; local servers
 * should bind to localhost). A page on another site can make a browser send requests to
 * 127.0.0.1 under its own name: its Host and Origin then name that site, never a loopback name.
 */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** Whether the address a server binds is a loopback one (then Host is checked too). */
export function isLoopbackAddress(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Why a request must be refused (a line for the 403), or undefined when its Host and Origin are
 * this server's own: a loopback name (with this port, or none), or an origin allowed explicitly.
 */
export function foreignRequest(headers: { host?: string; origin?: string }, port: number, allowedOrigins: readonly string[] = []): string | undefined {
  const local = (host: string | undefined) => host !== undefined && LOOPBACK.some((name) => host === name || host === `${name}:${port}`);
  if (!local(headers.host)) return `Host '${clipped(headers.host ?? '')}' is not this local server`;
  if (headers.origin === undefined) return undefined;
  if (allowedOrigins.includes(headers.origin)) return undefined;
  let host: string | undefined;
  try {
    host = new URL(headers.origin).host;
  } catch {
    host = undefined;
  }
  return local(host) ? undefined : `Origin '${clipped(headers.origin)}' is not allowed (--allowed-origin adds one)`;
}

function clipped(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
