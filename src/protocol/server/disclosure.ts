// The server side of progressive disclosure (PD v2.1), written once: what the reference server and
// `serve` both answer. The model (src/model/) is the same rules seen from the client's side.
import { checkFetchSize } from './limits.js';
import {
  missingToolSelection,
  parseSelection,
  RESOURCE_DESCRIPTION,
  RESOURCE_URI,
  selectionOfArguments,
  toolDescriptionRequired,
  unknownTool,
  type ToolSelection,
} from './payloads.js';

/** What a server discloses: its tools' names (as tools/list has them) and each one's full description. */
export interface Catalog {
  names(): string[];
  full(name: string): Record<string, unknown> | undefined;
}

/** A JSON-RPC error a read is refused with (too many names). */
export interface ProtocolError {
  code: number;
  message: string;
  data?: Record<string, unknown>;
}

/**
 * The answer to a resources/read: not this resource (someone else's to answer), refused, or the
 * JSON body and the tools it grants — exactly the known tools whose descriptions it returns
 * (§4.4, §5.1, §6.1, §6.3). Nothing is granted by a refused read or a read without a selection.
 */
export type ReadAnswer =
  | { kind: 'not-this-resource' }
  | { kind: 'refused'; error: ProtocolError }
  | { kind: 'answer'; body: Record<string, unknown>; grants: string[] };

export function answerRead(uri: string, catalog: Catalog): ReadAnswer {
  return answerSelection(parseSelection(uri), catalog);
}

/** The answer to a call of the tool form: what a read of the same selection answers, and grants. */
export function answerToolForm(args: unknown, catalog: Catalog): ReadAnswer {
  return answerSelection(selectionOfArguments(args), catalog);
}

/**
 * A read's answer as the tool form returns it: the same JSON as text (a missing selection as a
 * tool error, isError); a refused read is the same JSON-RPC error, thrown by the caller.
 */
export function toolFormResult(answer: Extract<ReadAnswer, { kind: 'answer' }>): {
  isError?: true;
  content: Array<{ type: 'text'; text: string }>;
} {
  const missing =
    answer.grants.length === 0 &&
    typeof answer.body.error === 'object' &&
    (answer.body.error as { code?: unknown } | null)?.code === 'MISSING_TOOL_SELECTION';
  return {
    ...(missing ? { isError: true as const } : {}),
    content: [{ type: 'text', text: JSON.stringify(answer.body) }],
  };
}

function answerSelection(selection: ToolSelection, catalog: Catalog): ReadAnswer {
  if (selection.kind === 'not-this-resource') return selection;
  if (selection.kind === 'missing') return { kind: 'answer', body: missingToolSelection(catalog.names()), grants: [] };
  try {
    checkFetchSize(selection.names);
  } catch (err) {
    const e = err as Error & ProtocolError;
    return { kind: 'refused', error: { code: e.code, message: e.message, ...(e.data ? { data: e.data } : {}) } };
  }
  // Keyed by the client's names: a tool called __proto__ or constructor is a key like any other,
  // never the body's prototype (JSON.stringify writes a null-prototype object's own keys).
  const body = Object.create(null) as Record<string, unknown>;
  const grants: string[] = [];
  for (const name of selection.names) {
    const full = catalog.full(name);
    body[name] = full ?? unknownTool(name, catalog.names());
    if (full) grants.push(name);
  }
  return { kind: 'answer', body, grants };
}

/** The resources/read result carrying a body as JSON text. */
export function readResult(
  uri: string,
  body: unknown,
): { contents: Array<{ uri: string; mimeType: string; text: string }> } {
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }] };
}

/**
 * A session's grants are a set of tool names (§5.1: per session, for its lifetime; a new session
 * starts with none). The refusal of a call of a listed tool the session has not fetched (§6.2): a tool result with
 * isError and the error as JSON text (string codes cannot be JSON-RPC error codes). Undefined
 * when the call may go ahead (granted, or not a listed tool: the server's own business).
 */
export function gateCall(
  tool: string,
  catalog: Catalog,
  granted: (tool: string) => boolean,
  descriptionsTool?: string,
): { isError: true; content: Array<{ type: 'text'; text: string }> } | undefined {
  // The tool form of the resource is how a fetch is made: the one tool callable unfetched.
  if (!catalog.full(tool) || tool === descriptionsTool || granted(tool)) return undefined;
  return refusal(tool, descriptionsTool);
}

/** The TOOL_DESCRIPTION_REQUIRED tool result for `tool` (naming the tool form, when there is one). */
export function refusal(
  tool: string,
  descriptionsTool?: string,
): { isError: true; content: Array<{ type: 'text'; text: string }> } {
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(toolDescriptionRequired(tool, descriptionsTool)) }],
  };
}

/** The tool_descriptions resource as resources/list shows it (§4.1–4.2). */
export const DESCRIPTIONS_RESOURCE = {
  uri: RESOURCE_URI,
  name: 'Tool Descriptions - Required for tool use',
  description: RESOURCE_DESCRIPTION,
  mimeType: 'application/json',
} as const;
