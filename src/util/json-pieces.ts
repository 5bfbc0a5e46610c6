// JSON text in pieces, byte for byte what `JSON.stringify(value, null, 2)` writes at that depth, so
// that a report of tens of MB is never one string: small strings live in V8's young generation and
// reuse its memory, where one big string is a fresh mapping whose every page faults in, and is then
// copied again by whoever reads it (masking, encoding).

/** A value stringify leaves out of an object (and writes as null in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** `JSON.stringify(value, null, 2)` as it would be written `level` levels deep, without the first line's indent. */
function nestedText(value: unknown, level: number): string {
  if (level === 0) return JSON.stringify(value, null, 2);
  // Wrapped in `level` arrays, stringified, and cut out: stringify indents it, not a copy made here.
  let wrapped: unknown = value;
  for (let i = 0; i < level; i++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, 2);
  // Each wrapper writes `<indent>[\n` before and `\n<indent>]` after: 2i + 2 characters each at depth i.
  const around = level * (level + 1);
  return text.slice(around + 2 * level, text.length - around);
}

/**
 * The pieces of `value` as it would stand `level` levels deep in a pretty-printed document (the
 * first piece without its line's indent); containers are opened here down to `splitDepth` levels
 * below it, deeper ones are written by stringify whole.
 */
export function* jsonPieces(value: unknown, level: number, splitDepth: number): Generator<string> {
  const isArray = Array.isArray(value);
  const plain =
    typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
  const keys = plain
    ? isArray
      ? []
      : Object.keys(value).filter((k) => !omitted((value as Record<string, unknown>)[k]))
    : [];
  if (splitDepth <= 0 || !plain || (isArray ? (value as unknown[]).length === 0 : keys.length === 0)) {
    yield nestedText(value, level);
    return;
  }
  const inner = '  '.repeat(level + 1);
  yield isArray ? '[\n' : '{\n';
  const items: Array<[string | undefined, unknown]> = isArray
    ? (value as unknown[]).map((v) => [undefined, omitted(v) ? null : v])
    : keys.map((k) => [k, (value as Record<string, unknown>)[k]]);
  for (const [i, [key, item]] of items.entries()) {
    yield key === undefined ? inner : `${inner}${JSON.stringify(key)}: `;
    yield* jsonPieces(item, level + 1, splitDepth - 1);
    yield i < items.length - 1 ? ',\n' : '\n';
  }
  yield `${'  '.repeat(level)}${isArray ? ']' : '}'}`;
}
