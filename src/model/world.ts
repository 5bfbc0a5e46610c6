import type { Args } from '../core/messages.js';
import type { Exchange, JsonObject } from '../transport/types.js';

/**
 * What the model knows of the server before any state: the listed tools, the resource, the
 * first tools/list answer (every later one must equal it) and the full descriptions (examples
 * a tool must accept). Fixed for the run.
 */
export interface World {
  tools: readonly string[];
  toolSet: ReadonlySet<string>;
  /** The tool_descriptions URI refusals must point at: listed, else found (undefined when none works). */
  resource?: string;
  /** Whether resources/list lists it (else a refusal's resource_uri may use any …/tool_descriptions URI). */
  listed: boolean;
  /** Each tools/list page of the probe as `listingKey` gives it, by cursor ('' for the first page). */
  listing: ReadonlyMap<string, string>;
  /** Full descriptions, where known. */
  descriptions: ReadonlyMap<string, JsonObject>;
  /**
   * Each tool's inputSchema: its full description's, else its tools/list entry's (what an argument error would name).
   */
  schemas: ReadonlyMap<string, unknown>;
  /** Tools marked read-only (their examples are called for real; a rejected example is a broken contract). */
  readOnly: ReadonlySet<string>;
  /** The tool form of the resource: a call of it is the read it mirrors (DESIGN, "The tool form of the resource"). */
  descriptionsTool?: string;
}

/** The state of one session in the model: its grants, and the tools whose state an answer left open. */
export interface SessionModel {
  grants: Set<string>;
  /**
   * A missing-selection read that returned descriptions: whether they grant is left open, and calls of them are not
   * judged.
   */
  open: Set<string>;
}

export function emptySession(): SessionModel {
  return { grants: new Set(), open: new Set() };
}

/**
 * A broken rule, owned by one check (the criterion that owns the rule, DESIGN "Ownership"):
 * a code of that check, its args, the tool it is about and the exchanges that show it.
 * `level`: `fail` at the owner's severity, `warn` or `info` as they are.
 */
export interface RuleBreak {
  check: string;
  code: string;
  args: Args;
  level: 'fail' | 'warn' | 'info';
  tool?: string;
  /** Exchanges that show it, oldest first (the diverging one last). */
  proof: Exchange[];
}

export const CRITERION = {
  listing: 'pd-minimal-descriptions',
  names: 'pd-tools-parameter',
  answer: 'pd-full-descriptions',
  missing: 'pd-missing-tool-selection',
  grants: 'pd-authorization-enforced',
  refusal: 'pd-description-required',
  isolation: 'pd-session-isolation',
  unknown: 'pd-unknown-tool',
  /** The tool form of the resource (this project's convention): its grants must be the read's. */
  toolForm: 'pd-descriptions-tool',
} as const;

/** MCP's session management over Streamable HTTP: the model's rule of an ended session (404) belongs to it. */
export const SESSION_LIFECYCLE = 'mcp-session-lifecycle';

/**
 * A tools/list page as the model compares it: its tools by name, whatever their order. §3.1 keeps
 * the same list in every state; the order is MCP's SHOULD (2026-07-28: deterministic), a warning of
 * quality/listing-order — never a failure of progressive disclosure.
 */
export function listingKey(tools: unknown): string {
  if (!Array.isArray(tools)) return JSON.stringify(tools);
  const named = (t: unknown) => {
    const name = (t as { name?: unknown } | null)?.name;
    return typeof name === 'string' ? name : '';
  };
  return JSON.stringify(
    [...(tools as unknown[])].sort((a, b) => (named(a) < named(b) ? -1 : named(a) > named(b) ? 1 : 0)),
  );
}
