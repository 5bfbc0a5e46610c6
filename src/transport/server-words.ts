// What the checker says about a server that went away or kept silent: its telling stderr line, its
// last words, the request it was on.
import type { Exchange } from './types.js';
import { clip } from '../util/text.js';

/**
 * The stderr line that best says why a server stopped: the last error saying something is missing
 * (npm's "could not be found"), else the last one naming an error (`TypeError: boom` too: a crashed
 * Node server ends with its stack and its version banner, which say nothing), else the last line.
 */
export function telling(tail: string[]): string | undefined {
  // A pointer to a log file (npm's last line) says nothing of what went wrong.
  const lines = tail.filter((l) => !/A complete log of this run can be found in/.test(l));
  const missing = (l: string) => NOT_FOUND.test(l) && TROUBLE.test(l);
  for (const telling of [missing, (l: string) => ERROR_LINE.test(l), (l: string) => TROUBLE.test(l)]) {
    for (let i = lines.length - 1; i >= 0; i--) if (telling(lines[i])) return lines[i];
  }
  return lines[lines.length - 1] ?? tail[tail.length - 1];
}

/** Something missing (a package, a module, a file): in an error line, the most telling there is. */
const NOT_FOUND = /\bnot (be )?found\b|\bno such file\b|\bcannot find module\b|\bE404\b|\bENOENT\b/i;
const TROUBLE = /\b(error|exception|fatal|cannot|failed|refused|denied)\b|ERR_/i;
/** The line a crash prints its error on (`TypeError: boom`, `Error [ERR_X]: …`, Python's `KeyError: 'x'`). */
const ERROR_LINE = /^\s*\w*(Error|Exception)( \[\w+\])?: /;

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
  const what =
    typeof params?.name === 'string'
      ? ` '${clip(params.name, 60)}'`
      : typeof params?.uri === 'string'
        ? ` ${clip(params.uri, 80)}`
        : '';
  return `${ex.method}${what}`;
}

/** Milliseconds as seconds for messages: "0.4 s", "12.3 s". */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
