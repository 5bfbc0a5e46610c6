// The SDKs' schemas of MCP results, by era, and what a result breaks of them: one rule for
// mcp-wire-valid, on the run's thread or on its side thread (src/util/side-thread.ts).
import { MODERN_ERA, type Era } from '../transport/era.js';

/** The part of a zod schema used here. */
interface ResultSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } };
}

/** A result to check: the method of its request, and the result. */
export interface WireResult {
  method: string;
  result: unknown;
}

/** The SDK whose schemas judge an era's results (said in the report). */
export function sdkOf(era: Era): string {
  return era === MODERN_ERA ? '@modelcontextprotocol/core 2' : '@modelcontextprotocol/sdk 1';
}

type SchemaName =
  | 'DiscoverResultSchema'
  | 'InitializeResultSchema'
  | 'ListToolsResultSchema'
  | 'CallToolResultSchema'
  | 'ListResourcesResultSchema'
  | 'ReadResourceResultSchema';

const BOTH_ERAS: Record<string, SchemaName> = {
  'tools/list': 'ListToolsResultSchema',
  'tools/call': 'CallToolResultSchema',
  'resources/list': 'ListResourcesResultSchema',
  'resources/read': 'ReadResourceResultSchema',
};
const LEGACY_NAMES: Record<string, SchemaName> = { initialize: 'InitializeResultSchema', ...BOTH_ERAS };
const MODERN_NAMES: Record<string, SchemaName> = { 'server/discover': 'DiscoverResultSchema', ...BOTH_ERAS };

/** Which schema of the era's SDK judges the result of each method (those of other methods are not checked). */
function schemaNames(era: Era): Record<string, SchemaName> {
  return era === MODERN_ERA ? MODERN_NAMES : LEGACY_NAMES;
}

/** Whether an era's SDK has a schema for results of this method. */
export function hasResultSchema(era: Era, method: string): boolean {
  return Object.hasOwn(schemaNames(era), method);
}

/**
 * The result schemas of an era's SDK (~0.1–0.2 s of CPU to load): 2025-11-25 by the SDK v1 the
 * checker speaks with, 2026-07-28 by the SDK v2's core (`@modelcontextprotocol/core`), whose
 * schemas hold that era's messages (server/discover in place of initialize).
 */
export async function schemasOf(era: Era): Promise<Record<string, ResultSchema>> {
  const lib = (era === MODERN_ERA
    ? await import('@modelcontextprotocol/core')
    : await import('@modelcontextprotocol/sdk/types.js')) as unknown as Record<SchemaName, ResultSchema>;
  return Object.fromEntries(Object.entries(schemaNames(era)).map(([method, name]) => [method, lib[name]]));
}

/** For each result, what it breaks of its era's schema (the first three issues), or undefined. */
export async function resultIssues(era: Era, results: WireResult[]): Promise<Array<string | undefined>> {
  const schemas = await schemasOf(era);
  return results.map(({ method, result }) => {
    const parsed = schemas[method]?.safeParse(result);
    if (!parsed || parsed.success) return undefined;
    return parsed
      .error!.issues.slice(0, 3)
      .map((i) => `${i.path.map(String).join('.') || '(result)'}: ${i.message}`)
      .join('; ');
  });
}
