/**
 * The SDK answers a request whose params fail its schema with -32603 and a JSON dump of zod
 * issues. A client deserves -32602 (Invalid params, JSON-RPC 2.0) and one readable line.
 */
export function clarifyValidationError(message: unknown): unknown {
  const error = (message as { error?: { code?: unknown; message?: unknown } }).error;
  if (
    !error ||
    error.code !== -32603 ||
    typeof error.message !== 'string' ||
    !error.message.trimStart().startsWith('[')
  )
    return message;
  let issues: Array<{ path?: unknown[]; message?: string }>;
  try {
    issues = JSON.parse(error.message) as typeof issues;
  } catch {
    return message;
  }
  if (!Array.isArray(issues) || !issues.every((i) => Array.isArray(i?.path))) return message;
  const said = issues
    .slice(0, 3)
    .map((i) => `${i.path!.map(String).join('.') || '(params)'}: ${i.message ?? 'invalid'}`)
    .join('; ');
  return { ...(message as object), error: { code: -32602, message: `Invalid params: ${said}` } };
}
