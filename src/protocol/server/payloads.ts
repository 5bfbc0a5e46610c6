import { DESCRIPTIONS_TOOL, MIRRORS_KEY, selectedByCall } from '../tool-form.js';

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

export { DESCRIPTIONS_TOOL, MIRRORS_KEY };

/**
 * The tool form's tools/list entry (src/protocol/tool-form.ts): the one entry whose inputSchema
 * says its parameter, since a model must call it before anything is fetched.
 */
export function descriptionsToolEntry(resource = RESOURCE_URI): Record<string, unknown> {
  return {
    name: DESCRIPTIONS_TOOL,
    title: 'Get tool descriptions',
    description:
      'Returns the full descriptions (parameters, examples) of the tools you name; call it first: every other tool is refused until its description was fetched.',
    inputSchema: {
      type: 'object',
      properties: {
        tools: {
          type: 'array',
          items: { type: 'string' },
          minItems: 1,
          description: 'The names of the tools to describe, exactly as tools/list gives them.',
        },
      },
      required: ['tools'],
      additionalProperties: false,
    },
    annotations: {
      title: 'Get tool descriptions',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    _meta: { [MIRRORS_KEY]: resource },
  };
}

/** The tool form's full description (its examples name `exampleTools`, the server's own). */
export function descriptionsToolFull(
  exampleTools: readonly string[],
  resource = RESOURCE_URI,
): Record<string, unknown> {
  const entry = descriptionsToolEntry(resource);
  const [a = 'TOOL_NAME', b] = exampleTools;
  return {
    name: entry.name,
    title: entry.title,
    description: `Returns the full descriptions of the tools you name — what each does, its complete input schema, examples and errors — exactly as a read of ${resource}?tools=NAMES returns them, and authorizes those tools for this session. Read-only.`,
    inputSchema: entry.inputSchema,
    examples: [
      {
        description: 'The description of one tool',
        input: { tools: [a] },
        explanation: `Returns { "${a}": { name, description, inputSchema, examples } }; ${a} may then be called.`,
      },
      ...(b !== undefined
        ? [
            {
              description: 'Two tools at once',
              input: { tools: [a, b] },
              explanation: 'Both descriptions, each under its name; both tools are authorized.',
            },
          ]
        : []),
    ],
    usage_guidance: {
      common_patterns: [
        `Pick tools from tools/list by their short descriptions, call ${entry.name as string} with their names, then call them.`,
      ],
      important_notes: [
        'An unknown name gets an entry with an error and the available tools; it authorizes nothing.',
        'Every other tool is refused until its description was fetched, by this tool or by the resource.',
      ],
    },
    error_guidance: {
      common_errors: [
        {
          error: 'No tool selected',
          cause: 'No tool name was given.',
          solution: 'Pass "tools": ["NAME"] with at least one name from tools/list.',
        },
      ],
    },
    annotations: entry.annotations,
  };
}

/**
 * The workflow, for a server's `instructions` (clients put them before the model); `toolForm`: the tool form's name, if
 * offered.
 */
export function workflowInstructions(toolForm?: string): string {
  const fetch = toolForm
    ? `call ${toolForm} with {"tools": ["NAME"]}, or read ${RESOURCE_URI}?tools=NAME`
    : `read ${RESOURCE_URI}?tools=NAME`;
  return `Tools use progressive disclosure: pick a tool from tools/list, fetch its full description — ${fetch} — then call it. A tool called before its description was fetched is refused with TOOL_DESCRIPTION_REQUIRED.`;
}

export type ToolSelection = { kind: 'missing' } | { kind: 'tools'; names: string[] } | { kind: 'not-this-resource' };

/**
 * The selection a call of the tool form makes: `tools` as a list of names (or one comma-separated string), as `?tools=`
 * does.
 */
export function selectionOfArguments(args: unknown): Exclude<ToolSelection, { kind: 'not-this-resource' }> {
  const names = (selectedByCall(args) ?? []).map((n) => n.trim());
  return names.length ? { kind: 'tools', names } : { kind: 'missing' };
}

/** Reads `tools` from a resource URI; names are comma-separated, trimmed, empty ones dropped. */
export function parseSelection(uri: string): ToolSelection {
  const [base, query = ''] = uri.split('#')[0].split('?', 2) as [string, string?];
  if (base !== RESOURCE_URI) return { kind: 'not-this-resource' };
  const raw = new URLSearchParams(query).get('tools');
  const names = (raw ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
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

/** The refusal of an unfetched call; with the tool form, it names that tool beside the resource. */
export function toolDescriptionRequired(name: string, descriptionsTool?: string) {
  return {
    error: {
      code: 'TOOL_DESCRIPTION_REQUIRED',
      message: descriptionsTool
        ? `Tool '${name}' requires fetching its description before use: call ${descriptionsTool} with {"tools": ["${name}"]} (or read the resource_uri).`
        : `Tool '${name}' requires fetching its description before use.`,
      resource_uri: `${RESOURCE_URI}?tools=${encodeURIComponent(name)}`,
      ...(descriptionsTool ? { descriptions_tool: descriptionsTool } : {}),
    },
  };
}

export function unknownTool(name: string, available: string[]) {
  return { error: `Tool '${name}' not found`, available_tools: available };
}
