// What the checker says about a server that went away or kept silent: its telling stderr line, its
// last words, the request it was on.
import type { Exchange } from './types.js';
import { clip } from '../util/text.js';

/**
 * The stderr line that best says why a server stopped: the last one naming an error (a crashed
 * Node server ends with its version banner, which says nothing), else the last line.
 */
export function telling(tail: string[]): string | undefined {
  for (let i = tail.length - 1; i >= 0; i--) if (/\b(error|exception|fatal|cannot|failed|refused|denied)\b|ERR_/i.test(tail[i]!)) return tail[i];
  return tail[tail.length - 1];
}

/**
 * Why a server went away, with its last lines on stderr: a proxy's own words (`mcp-pd-check serve:`)
 * first, then the rest, most recent last (at most three).
 */
export function lastWords(reason: string, tail: string[]): string {
  const lines = tail.filter((l) => l.trim());
  if (!lines.length) return reason;
  const own = lines.filter((l) => /^mcp-pd-check serve:/.test(l));
  const shown = [...own.slice(-1), ...lines.filter((l) => !own.includes(l)).slice(-(own.length ? 2 : 3))];
  return `${reason}; its last words on stderr: ${shown.map((l) => `"${clip(l, 200)}"`).join(', ')}`;
}

/** A request in a few words, for saying what a server was doing when it went away. */
export function describeRequest(ex: Exchange): string {
  const params = ex.request.params as { name?: unknown; uri?: unknown } | undefined;
  const what = typeof params?.name === 'string' ? ` '${clip(params.name, 60)}'` : typeof params?.uri === 'string' ? ` ${clip(params.uri, 80)}` : '';
  return `${ex.method}${what}`;
}

/** Milliseconds as seconds for messages: "0.4 s", "12.3 s". */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
