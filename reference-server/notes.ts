/** The reference server's small domain: an in-memory notebook, seeded the same way every time. */

export interface Note {
  id: string;
  title: string;
  body: string;
  tags: string[];
  createdAt: string;
  updatedAt: string;
}

/** A domain failure with a stable code (reported to the caller as a tool error). */
export class NoteError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

// A fixed clock keeps results deterministic: every write advances it by one minute.
const EPOCH = Date.parse('2026-01-01T09:00:00Z');

export class Notebook {
  private readonly notes = new Map<string, Note>();
  private nextId = 1;
  private tick = 0;

  constructor() {
    this.create({ title: 'Shopping list', body: 'Milk, eggs, bread and coffee.', tags: ['personal'] });
    this.create({ title: 'Meeting notes', body: 'Agreed to ship the notes API on Friday.', tags: ['work'] });
    this.create({ title: 'Ideas', body: 'A notebook that explains itself to an LLM.', tags: ['work', 'ideas'] });
  }

  list(tag?: string, limit = 20): Array<Omit<Note, 'body'>> {
    return [...this.notes.values()]
      .filter((n) => tag === undefined || n.tags.includes(tag))
      .reverse()
      .slice(0, limit)
      .map(({ body: _body, ...rest }) => rest);
  }

  get(id: string): Note {
    const note = this.notes.get(id);
    if (!note) throw new NoteError('NOTE_NOT_FOUND', `No note has id '${id}'.`);
    return note;
  }

  search(query: string, limit = 10): Array<{ id: string; title: string; snippet: string }> {
    const needle = query.toLowerCase();
    const hits: Array<{ id: string; title: string; snippet: string }> = [];
    for (const note of [...this.notes.values()].reverse()) {
      const text = `${note.title}\n${note.body}`;
      const at = text.toLowerCase().indexOf(needle);
      if (at < 0) continue;
      hits.push({ id: note.id, title: note.title, snippet: text.slice(Math.max(0, at - 20), at + needle.length + 20) });
      if (hits.length >= limit) break;
    }
    return hits;
  }

  create(input: { title: string; body: string; tags?: string[] }): Note {
    const now = this.now();
    const note: Note = {
      id: `note-${this.nextId++}`,
      title: input.title,
      body: input.body,
      tags: [...new Set(input.tags ?? [])],
      createdAt: now,
      updatedAt: now,
    };
    this.notes.set(note.id, note);
    return note;
  }

  update(input: { id: string; title?: string; body?: string; tags?: string[] }): Note {
    const note = this.get(input.id);
    if (input.title !== undefined) note.title = input.title;
    if (input.body !== undefined) note.body = input.body;
    if (input.tags !== undefined) note.tags = [...new Set(input.tags)];
    note.updatedAt = this.now();
    return note;
  }

  delete(id: string): Note {
    const note = this.get(id);
    this.notes.delete(id);
    return note;
  }

  private now(): string {
    return new Date(EPOCH + 60_000 * this.tick++).toISOString();
  }
}
