/**
 * JSON Pointers (RFC 6901), in one place: every finding location and rule result uses them.
 */

/** One reference token: `~` → `~0`, `/` → `~1`. */
export function escapeSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `pointer` with more segments appended: join('/a', 'b/c', 0) → '/a/b~1c/0'. */
export function joinPointer(pointer: string, ...segments: Array<string | number>): string {
  return pointer + segments.map((s) => `/${escapeSegment(s)}`).join('');
}

/** The segments of a pointer, unescaped; '' → []. */
export function pointerSegments(pointer: string): string[] {
  return pointer ? pointer.split('/').slice(1).map(unescapeSegment) : [];
}

/** The value a pointer designates, or undefined (own properties only). */
export function valueAt(root: unknown, pointer: string): unknown {
  let value: unknown = root;
  for (const segment of pointerSegments(pointer)) {
    if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, segment))
      return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** `/safety/pii_exposure` → `safety.pii_exposure`; `/tested_with/0/llm` → `tested_with[0].llm`. */
export function fieldName(pointer: string): string {
  if (!pointer) return '(the top level)';
  return pointerSegments(pointer).reduce(
    (acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg),
    '',
  );
}
