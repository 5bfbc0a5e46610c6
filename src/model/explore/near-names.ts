// Names that resemble a tool's but are none: the exploration's near-name fetches and calls
// (§4.3: names match exactly).

/** Names that resemble a tool's but are none (§4.3: names match exactly), one kind at a time. */
export const NEAR_KINDS = ['case', 'prefix', 'suffix', 'separator', 'edit', 'spaces'] as const;
export type NearKind = (typeof NEAR_KINDS)[number];

export function nearName(tool: string, kind: NearKind, tools: readonly string[]): string | undefined {
  const swap = (s: string) => [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  const half = Math.max(1, Math.ceil(tool.length / 2));
  const candidate = {
    case: swap(tool),
    prefix: tool.slice(0, half).replace(/[-_.]+$/, ''),
    suffix: tool.slice(Math.floor(tool.length / 2)).replace(/^[-_.]+/, ''),
    separator: /[_-]/.test(tool) ? tool.replace(/[_-]/g, (c) => (c === '_' ? '-' : '_')) : `${tool}_`,
    edit: `${tool.slice(0, -1)}${tool.endsWith('x') ? 'y' : 'x'}`,
    spaces: ` ${tool}`,
  }[kind];
  if (kind === 'spaces') return candidate;
  return candidate && candidate !== tool && !tools.includes(candidate) && !tools.includes(candidate.trim())
    ? candidate
    : undefined;
}
