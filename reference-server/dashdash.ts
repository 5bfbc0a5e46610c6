/**
 * dashdash v0.2.0 metadata of the reference server: the `dashdash` object of the initialize
 * result (§3.1), the per-tool short fields for tools/list (§3.2; examples and errors live in the
 * full descriptions, as progressive disclosure keeps tools/list minimal), the resource's (§3.4),
 * and the `ai_help` method (§3.3).
 */
import { TOOLS } from './tools.js';
import { SERVER_NAME } from './server-info.js';
import { asText } from '../src/util/text.js';

export const SERVER_DASHDASH = {
  specVersion: '0.2.0',
  identity: {
    name: SERVER_NAME,
    description:
      'A small notes service. Use when the user asks to write down, find, change or delete notes, or to list notes by tag.',
    emoji: '🗒️',
  },
  accessLevel: 'interact',
  alternativeAccess: { cliUrl: null, apiUrl: null, webUrl: null },
  install: { npm: 'mcp-pd-check' },
  requires: { auth: [], env: [], scopes: [] },
  invocation: { modelInvocable: true, userInvocable: true },
  rateLimit: '60 description fetches per minute per session',
  homepage: 'https://www.npmjs.com/package/mcp-pd-check',
} as const;

/** Short, stable facts per tool: safe to show in tools/list next to a minimal description. */
export const TOOL_DASHDASH: Record<string, Record<string, unknown>> = {
  list_notes: {
    category: 'notes',
    operationType: 'read',
    idempotent: true,
    sideEffects: [],
    reversible: true,
    cliEquivalent: 'notes list --tag {tag} --limit {limit}',
  },
  get_note: {
    category: 'notes',
    operationType: 'read',
    idempotent: true,
    sideEffects: [],
    reversible: true,
    cliEquivalent: 'notes show {id}',
  },
  search_notes: {
    category: 'notes',
    operationType: 'read',
    idempotent: true,
    sideEffects: [],
    reversible: true,
    cliEquivalent: 'notes search {query} --limit {limit}',
  },
  create_note: {
    category: 'notes',
    operationType: 'write',
    idempotent: false,
    sideEffects: ['creates a note'],
    reversible: true,
    reverseMethod: 'delete_note',
    cliEquivalent: 'notes add --title {title} --body {body}',
  },
  update_note: {
    category: 'notes',
    operationType: 'write',
    idempotent: true,
    sideEffects: ['changes a note'],
    reversible: true,
    reverseMethod: 'update_note',
    cliEquivalent: 'notes edit {id} --title {title}',
  },
  delete_note: {
    category: 'notes',
    operationType: 'delete',
    idempotent: true,
    sideEffects: ['deletes a note'],
    reversible: false,
    cliEquivalent: 'notes rm {id}',
  },
  get_tool_descriptions: {
    category: 'discovery',
    operationType: 'read',
    idempotent: true,
    sideEffects: [],
    reversible: true,
  },
};

export const RESOURCE_DASHDASH = { resourceType: 'tool-descriptions', refreshable: false, cacheDuration: 3600 };

const WHEN_TO_USE = [
  'Write down something the user wants to remember',
  'Find a note by a word in it, or list notes by tag',
  'Change or delete a note',
];
const NOT_FOR = ['Long documents or files (use a file system server)', 'Reminders at a time (use a calendar)'];

const SECTIONS = {
  'when-to-use': () =>
    `## When to Use\n\nUse this MCP server when the user asks to:\n${WHEN_TO_USE.map((w) => `- ${w}`).join('\n')}\n\nDo NOT use it for:\n${NOT_FOR.map((w) => `- ${w}`).join('\n')}\n`,
  'quick-reference': () =>
    `## Quick Reference\n\n${TOOLS.map((t) => `- \`${t.name}\` — ${t.summary}`).join('\n')}\n\nEvery tool needs its description fetched first: \`resource:///tool_descriptions?tools=NAME\`.\n`,
  authentication: () => '## Authentication\n\nNone over stdio. Over HTTP the operator may require a bearer token.\n',
};
type SectionName = keyof typeof SECTIONS;
export const AI_HELP_SECTIONS = Object.keys(SECTIONS) as SectionName[];

function frontMatter(): string {
  const d = SERVER_DASHDASH;
  return [
    '---',
    `name: ${d.identity.name}`,
    'description: >',
    `  ${d.identity.description}`,
    'spec-url: https://github.com/visionik/dashdash',
    `spec-version: ${d.specVersion}`,
    `access-level: ${d.accessLevel}`,
    'cli-url: null',
    'api-url: null',
    'web-url: null',
    'invocation:',
    '  model-invocable: true',
    '  user-invocable: true',
    '---',
  ].join('\n');
}

/** The ai_help result; throws a -32602 error for an unknown section or format. */
export function aiHelp(params: { format?: unknown; section?: unknown } = {}): Record<string, unknown> {
  const format = params.format ?? 'markdown';
  const section = params.section ?? null;
  if (format !== 'markdown' && format !== 'json')
    throw Object.assign(new Error(`Unknown format '${asText(format)}': use markdown or json`), { code: -32602 });
  if (section !== null && !(AI_HELP_SECTIONS as string[]).includes(asText(section))) {
    throw Object.assign(new Error(`Unknown section '${asText(section)}'; available: ${AI_HELP_SECTIONS.join(', ')}`), {
      code: -32602,
      data: { available: AI_HELP_SECTIONS },
    });
  }
  const names = section === null ? AI_HELP_SECTIONS : [section as SectionName];
  if (format === 'json') {
    const all: Record<string, unknown> = {
      'when-to-use': { use: WHEN_TO_USE, doNotUse: NOT_FOR },
      'quick-reference': TOOLS.map((t) => ({ tool: t.name, summary: t.summary })),
      authentication: 'None over stdio; an optional bearer token over HTTP.',
    };
    return {
      metadata: {
        name: SERVER_DASHDASH.identity.name,
        description: SERVER_DASHDASH.identity.description,
        specVersion: SERVER_DASHDASH.specVersion,
      },
      sections: Object.fromEntries(names.map((n) => [n, all[n]])),
      contentType: 'application/json',
    };
  }
  const body = names.map((n) => SECTIONS[n]()).join('\n');
  const content =
    section === null
      ? `${frontMatter()}\n\n# Notes (reference MCP server)\n\n> ${SERVER_DASHDASH.identity.description}\n\n${body}`
      : body;
  return { content, contentType: 'text/markdown' };
}
