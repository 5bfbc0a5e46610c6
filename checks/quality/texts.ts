// What the quality rules share: the texts of a server as the model reads them, words, and the
// parameters of a schema. Only the public plugin API is imported: the rule set is a plugin like any
// other (docs/plugins.md), and a test holds it to that.
import type { JsonObject, ServerTexts, TextPlace, ToolTexts } from '../../src/plugin/index.js';

/** Where each rule is documented (a file of the package). */
export const docOf = (id: string): string => `docs/checks/quality/${id}.md`;

/** A value as text ('' for anything that is not a string). */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Lower-case words (letters and digits) of a text. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The words of a tool's name: get_user, getUser, get-user and get.user are all [get, user]. */
export function nameWords(name: string): string[] {
  return wordsOf(name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_.-]+/g, ' '));
}

/** A JSON object, or undefined. */
export function objectOf(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

/** A parameter of an input schema: its name, its pointer in the tool's full description, its schema. */
export interface Parameter {
  name: string;
  pointer: string;
  schema: JsonObject;
}

/** Each full description's parameters, found once for every rule that reads them. */
const parametersFound = new WeakMap<JsonObject, Parameter[]>();

/** The top-level parameters of a tool's full description (its inputSchema's properties). */
export function parametersOf(full: JsonObject | undefined): Parameter[] {
  if (!full) return [];
  const known = parametersFound.get(full);
  if (known) return known;
  const found = findParameters(full);
  parametersFound.set(full, found);
  return found;
}

function findParameters(full: JsonObject): Parameter[] {
  const properties = objectOf(objectOf(full.inputSchema)?.properties);
  if (!properties) return [];
  return Object.entries(properties).flatMap(([name, schema]) => {
    const object = objectOf(schema);
    return object
      ? [{ name, pointer: `/inputSchema/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, schema: object }]
      : [];
  });
}

/** Every text of a tool the model reads, with where it is: its listed and full descriptions, and its parameters'. */
export function toolTexts(tool: ToolTexts): Array<{ text: string; at: TextPlace }> {
  const out: Array<{ text: string; at: TextPlace }> = [];
  if (tool.listed)
    out.push({
      text: textOf(tool.listed.description),
      at: { level: 'listed', tool: tool.name, pointer: '/description' },
    });
  if (tool.full) {
    out.push({ text: textOf(tool.full.description), at: { level: 'full', tool: tool.name, pointer: '/description' } });
    for (const p of parametersOf(tool.full))
      out.push({
        text: textOf(p.schema.description),
        at: { level: 'full', tool: tool.name, pointer: `${p.pointer}/description` },
      });
  }
  return out.filter((t) => t.text);
}

/** Every text of a server the model reads: each tool's, the resource's description, the instructions. */
export function serverTexts(texts: ServerTexts): Array<{ text: string; at: TextPlace }> {
  return [
    ...texts.tools.flatMap(toolTexts),
    ...(texts.resource
      ? [{ text: textOf(texts.resource.description), at: { level: 'resource' as const, pointer: '/description' } }]
      : []),
    ...(texts.instructions ? [{ text: texts.instructions, at: { level: 'instructions' as const } }] : []),
  ].filter((t) => t.text);
}

/** Characters a reader does not see, or that move what follows them: shown as escapes wherever a span is quoted. */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** A span of a text around a match, quoted short, with what the reader would not see as escapes. */
export function quote(text: string, index: number, length: number): string {
  const start = Math.max(0, index - 20);
  const end = Math.min(text.length, index + length + 20);
  const span = text
    .slice(start, end)
    .replace(/[ \t\r\n]+/g, ' ')
    .replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `${start > 0 ? '…' : ''}${span}${end < text.length ? '…' : ''}`;
}
