/**
 * The progressive-disclosure payloads, exactly as the spec shows them (§4.4, §6.1–6.3), and the
 * parsing of `?tools=`. Errors travel as JSON text in a successful reply: the spec's string codes
 * cannot be JSON-RPC error codes, and tool errors belong in the result with isError (MCP tools spec).
 */

export const RESOURCE_URI = 'resource:///tool_descriptions';

export const RESOURCE_DESCRIPTION = [
  'WORKFLOW:',
  'Step 1: PICK the tool you need from tools/list (the short descriptions there say WHAT each tool does and are enough to choose).',
  `Step 2: FETCH its full description from this resource to learn HOW to use it: ${RESOURCE_URI}?tools=TOOL_NAME (several: ?tools=TOOL1,TOOL2).`,
  'Step 3: CALL the tool with the parameters you learned.',
  'IMPORTANT: you CANNOT call a tool before fetching its description: the call fails with TOOL_DESCRIPTION_REQUIRED. Fetching authorizes the tool for this session.',
  'The ?tools= parameter is required: the base URI alone returns MISSING_TOOL_SELECTION.',
].join('\n');

export type ToolSelection = { kind: 'missing' } | { kind: 'tools'; names: string[] } | { kind: 'not-this-resource' };

/** Reads `tools` from a resource URI; names are comma-separated, trimmed, empty ones dropped. */
export function parseSelection(uri: string): ToolSelection {
  const [base, query = ''] = uri.split('#')[0]!.split('?', 2) as [string, string?];
  if (base !== RESOURCE_URI) return { kind: 'not-this-resource' };
  const raw = new URLSearchParams(query).get('tools');
  const names = (raw ?? '').split(',').map((n) => n.trim()).filter(Boolean);
  return names.length ? { kind: 'tools', names } : { kind: 'missing' };
}

export function missingToolSelection(exampleTools: string[]) {
  const [a = 'tool_name', b] = exampleTools;
  // Examples a client can follow: real names only (a server of one tool shows one example).
  const examples = [`${RESOURCE_URI}?tools=${a}`, ...(b !== undefined ? [`${RESOURCE_URI}?tools=${a},${b}`] : [])];
  return {
    error: {
      code: 'MISSING_TOOL_SELECTION',
      message: "You must specify one or more tool names in the 'tools' parameter.",
      examples,
    },
  };
}

export function toolDescriptionRequired(name: string) {
  return {
    error: {
      code: 'TOOL_DESCRIPTION_REQUIRED',
      message: `Tool '${name}' requires fetching its description before use.`,
      resource_uri: `${RESOURCE_URI}?tools=${encodeURIComponent(name)}`,
    },
  };
}

export function unknownTool(name: string, available: string[]) {
  return { error: `Tool '${name}' not found`, available_tools: available };
}
