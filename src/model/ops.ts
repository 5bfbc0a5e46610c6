import { afterEndOf } from '../transport/exchange-times.js';
import type { Exchange, JsonObject } from '../transport/types.js';
import { isPlainObject } from '../protocol/payload.js';
import { isToolDescriptionsUri } from '../protocol/uri.js';
import { selectedByCall } from '../protocol/tool-form.js';

/**
 * What the model sees of an exchange: the operation it was. Everything else a session says
 * (initialize, ai_help, other resources) is outside the model of progressive disclosure.
 */
export type Op =
  | { kind: 'list'; cursor?: string }
  /**
   * A read of the tool_descriptions resource naming at least one tool (`items`: as sent, decoded, untrimmed, empty ones
   * dropped).
   */
  | { kind: 'read'; uri: string; items: string[] }
  /** A read without `tools`, or with only empty names. */
  | { kind: 'read-missing'; uri: string }
  | { kind: 'call'; tool: string; args: JsonObject }
  /** A request under the id of a session that ended (over HTTP): answered with this HTTP status. */
  | { kind: 'after-end'; status?: number }
  | { kind: 'other' };

/**
 * `mirror`: the tool form of the resource (src/protocol/tool-form.ts): a call of it is the read it
 * mirrors, of the names it selects (`uri`: the selection as `?tools=` would say it).
 */
export function opOf(ex: Exchange, mirror?: string): Op {
  const ended = afterEndOf(ex);
  if (ended) return { kind: 'after-end', ...(ended.status !== undefined ? { status: ended.status } : {}) };
  const params = isPlainObject(ex.request.params) ? ex.request.params : {};
  switch (ex.method) {
    case 'tools/list':
      return { kind: 'list', ...(typeof params.cursor === 'string' ? { cursor: params.cursor } : {}) };
    case 'tools/call': {
      if (typeof params.name !== 'string') return { kind: 'other' };
      if (mirror !== undefined && params.name === mirror) {
        const items = selectedByCall(params.arguments);
        const uri = `${mirror}(${JSON.stringify(params.arguments ?? {})})`;
        return items ? { kind: 'read', uri, items } : { kind: 'read-missing', uri };
      }
      return { kind: 'call', tool: params.name, args: isPlainObject(params.arguments) ? params.arguments : {} };
    }
    case 'resources/read': {
      const uri = typeof params.uri === 'string' ? params.uri : '';
      if (!isToolDescriptionsUri(uri)) return { kind: 'other' };
      const items = (toolsParameter(uri) ?? []).filter((n) => n.trim() !== '');
      return items.length ? { kind: 'read', uri, items } : { kind: 'read-missing', uri };
    }
    default:
      return { kind: 'other' };
  }
}

/** The `tools` parameter of a URI split on commas, decoded, spaces kept; undefined without one. */
export function toolsParameter(uri: string): string[] | undefined {
  const query = uri.split('#')[0].split('?').slice(1).join('?');
  if (!query) return undefined;
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    const key = decode(eq < 0 ? part : part.slice(0, eq));
    if (key === 'tools')
      return eq < 0
        ? []
        : part
            .slice(eq + 1)
            .split(',')
            .map(decode);
  }
  return undefined;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, '%20'));
  } catch {
    return text;
  }
}

/**
 * How an unknown name resembles a listed one, if it does: the names a server that matches
 * loosely (§4.3 requires exact names) would take for another tool's.
 */
export type Resemblance = 'case' | 'prefix' | 'suffix' | 'separator' | 'spaces' | 'edit';

export function resemblance(name: string, tool: string): Resemblance | undefined {
  if (name === tool) return undefined;
  if (name.trim() === tool) return 'spaces';
  if (name.toLowerCase() === tool.toLowerCase()) return 'case';
  if (normal(name) === normal(tool)) return 'separator';
  return looser(name, tool);
}

/** The near names a call is made with: those a server may resolve to the tool (§4.3 wants exact names). */
export const NEAR_CALL_KINDS = ['case', 'spaces', 'separator'] as const satisfies readonly Resemblance[];

/** The listed tool an unknown name most resembles (exact case first), if any. */
export function resembled(name: string, tools: readonly string[]): { tool: string; how: Resemblance } | undefined {
  if (tools.length === 1) {
    const how = resemblance(name, tools[0]);
    return how ? { tool: tools[0], how } : undefined;
  }
  const index = indexOf(tools);
  const trimmed = name.trim();
  const exact = (tool: string | undefined, how: Resemblance) =>
    tool !== undefined && tool !== name && resemblance(name, tool) === how ? { tool, how } : undefined;
  const found =
    exact(index.exact.get(trimmed), 'spaces') ??
    exact(index.lower.get(name.toLowerCase()), 'case') ??
    exact(index.normal.get(normal(name)), 'separator');
  if (found) return found;
  // The rest need a look at each tool, with plain string tests only (no regular expression per pair).
  for (const how of ['prefix', 'suffix', 'edit'] as const) {
    const tool = tools.find((t) => t !== name && looser(name, t) === how);
    if (tool) return { tool, how };
  }
  return undefined;
}

/** `resemblance` past spaces, case and separators (which the index answers). */
function looser(name: string, tool: string): 'prefix' | 'suffix' | 'edit' | undefined {
  if (name.length >= 2 && tool.startsWith(name)) return 'prefix';
  if (name.length >= 2 && tool.endsWith(name)) return 'suffix';
  if (name.startsWith(tool) || name.endsWith(tool)) return 'prefix';
  if (editDistanceAtMostOne(name, tool)) return 'edit';
  return undefined;
}

const normal = (s: string) => s.toLowerCase().replace(/[-_.\s]/g, '');

/** The tools by exact name, lower case and separator-free name (the first of each), built once per list. */
const INDEXES = new WeakMap<
  readonly string[],
  { exact: Map<string, string>; lower: Map<string, string>; normal: Map<string, string> }
>();

function indexOf(tools: readonly string[]): {
  exact: Map<string, string>;
  lower: Map<string, string>;
  normal: Map<string, string>;
} {
  let index = INDEXES.get(tools);
  if (!index) {
    index = { exact: new Map(), lower: new Map(), normal: new Map() };
    for (const tool of tools) {
      if (!index.exact.has(tool)) index.exact.set(tool, tool);
      if (!index.lower.has(tool.toLowerCase())) index.lower.set(tool.toLowerCase(), tool);
      if (!index.normal.has(normal(tool))) index.normal.set(normal(tool), tool);
    }
    INDEXES.set(tools, index);
  }
  return index;
}

function editDistanceAtMostOne(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}
