/**
 * URIs of the tool_descriptions resource. §4.1 allows a server-specific scheme; DESIGN reads that
 * as "the URI without its query ends in /tool_descriptions".
 */

export const RESOURCE_PATH = '/tool_descriptions';

export function withoutQuery(uri: string): string {
  return uri.replace(/[?#].*$/s, '');
}

export function isToolDescriptionsUri(uri: string): boolean {
  return withoutQuery(uri).endsWith(RESOURCE_PATH);
}

/** The fetch URI for some tools: the listed URI plus `?tools=a,b` (names percent-encoded, commas kept). */
export function descriptionsUri(base: string, names: string[]): string {
  const sep = base.includes('?') ? '&' : '?';
  return `${base}${sep}tools=${names.map(encodeURIComponent).join(',')}`;
}

/** The `tools` names a URI asks for, trimmed (the guide trims spaces after commas). */
export function requestedTools(uri: string): string[] | undefined {
  const query = uri.split('#')[0].split('?')[1];
  if (query === undefined) return undefined;
  for (const part of query.split('&')) {
    const [key, value = ''] = part.split('=');
    if (safeDecode(key) === 'tools') return value.split(',').map((v) => safeDecode(v).trim());
  }
  return undefined;
}

/** Compares two URIs as URIs: percent-encoding and spaces after commas do not matter. */
export function sameUri(a: string, b: string): boolean {
  if (safeDecode(withoutQuery(a)) !== safeDecode(withoutQuery(b))) return false;
  const ta = requestedTools(a);
  const tb = requestedTools(b);
  if (ta === undefined || tb === undefined) return ta === tb;
  return ta.join(',') === tb.join(',');
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, '%20'));
  } catch {
    return s;
  }
}
