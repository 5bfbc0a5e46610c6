import { isPlainObject } from '../protocol/payload.js';
import { quickValidate } from '../util/schema.js';

/** An example init writes in a full description: one the server's own text gives. */
export interface FoundExample {
  description: string;
  input: Record<string, unknown>;
}

/** Objects read from one description, at most (a hostile text must not make init slow). */
const MAX_OBJECTS = 20;
/** Examples kept per tool. */
const MAX_EXAMPLES = 3;

/**
 * The examples a tool's own description gives: JSON objects written in it (in a code block, a
 * tagged block of examples, after "Example:" — anywhere), kept when they are calls of this tool:
 * they validate against its inputSchema and name only its parameters (an object of other keys is an
 * output, not an input). Nothing is invented: a value a generator makes up, a real tool may refuse.
 * `unusable`: objects that looked like calls (they name its parameters) but do not validate.
 */
export function examplesFromText(text: unknown, schema: unknown): { examples: FoundExample[]; unusable: number } {
  if (typeof text !== 'string' || !isPlainObject(schema)) return { examples: [], unusable: 0 };
  const parameters = isPlainObject(schema.properties) ? Object.keys(schema.properties) : [];
  if (!parameters.length) return { examples: [], unusable: 0 };
  const examples: FoundExample[] = [];
  const seen = new Set<string>();
  let unusable = 0;
  for (const object of jsonObjectsIn(text)) {
    const keys = Object.keys(object);
    if (!keys.length || !keys.every((k) => parameters.includes(k))) continue;
    const key = JSON.stringify(object);
    if (seen.has(key)) continue;
    seen.add(key);
    if (quickValidate(schema, object).length) {
      unusable++;
      continue;
    }
    if (examples.length < MAX_EXAMPLES)
      examples.push({ description: `From the tool's own description (example ${examples.length + 1})`, input: object });
  }
  return { examples, unusable };
}

/** Every JSON object written in a text, outermost first (strings and nested braces respected). */
function jsonObjectsIn(text: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (let start = text.indexOf('{'); start >= 0 && out.length < MAX_OBJECTS; start = text.indexOf('{', start + 1)) {
    const end = closingBrace(text, start);
    if (end < 0) continue;
    try {
      const value = JSON.parse(text.slice(start, end + 1)) as unknown;
      if (isPlainObject(value)) {
        out.push(value);
        start = end;
      }
    } catch {
      // Not JSON (a template, prose in braces): look inside it.
    }
  }
  return out;
}

/** The index of the brace that closes the one at `start`, or -1. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length && i < start + 10_000; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}
