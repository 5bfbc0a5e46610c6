import { type Notebook } from './notes.js';

type Args = Record<string, unknown>;

/** A tool as tools/list shows it (the minimal stage-1 entry) plus what it does. */
export interface ToolSpec {
  name: string;
  /** One line for tools/list: enough to choose the tool, nothing about its parameters. */
  summary: string;
  /** MCP tool annotations (a fixture's tool may have none, or others). */
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  /** When set, results carry structuredContent that conforms to it (MCP tools spec, Output Schema). */
  outputSchema?: { type: 'object'; [key: string]: unknown };
  run(notebook: Notebook, args: Args): unknown;
}

const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

// Arguments arrive already validated against the tool's full inputSchema.
export const TOOLS: ToolSpec[] = [
  {
    name: 'list_notes',
    summary:
      'Lists the most recent notes in the notebook, newest first, optionally only those tagged with a given tag.',
    annotations: { title: 'List notes', ...read },
    run: (nb, a) => ({ notes: nb.list(a.tag as string | undefined, a.limit as number | undefined) }),
  },
  {
    name: 'get_note',
    summary: 'Reads one note in full by its id: title, body and tags.',
    annotations: { title: 'Get a note', ...read },
    outputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        title: { type: 'string' },
        body: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        createdAt: { type: 'string' },
        updatedAt: { type: 'string' },
      },
      required: ['id', 'title', 'body', 'tags', 'createdAt', 'updatedAt'],
    },
    run: (nb, a) => nb.get(a.id as string),
  },
  {
    name: 'search_notes',
    summary: 'Searches notes for a word or phrase in their title or body, with a snippet of each match.',
    annotations: { title: 'Search notes', ...read },
    run: (nb, a) => ({ matches: nb.search(a.query as string, a.limit as number | undefined) }),
  },
  {
    name: 'create_note',
    summary: 'Creates a new note with a title, a body and tags.',
    annotations: {
      title: 'Create a note',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
    run: (nb, a) => nb.create(a as { title: string; body: string; tags?: string[] }),
  },
  {
    name: 'update_note',
    summary: 'Updates an existing note (rename it, replace its body or tags) and returns the updated note.',
    annotations: {
      title: 'Update a note',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    run: (nb, a) => nb.update(a as { id: string }),
  },
  {
    name: 'delete_note',
    summary: 'Deletes a note permanently.',
    annotations: {
      title: 'Delete a note',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    run: (nb, a) => nb.delete(a.id as string),
  },
];
