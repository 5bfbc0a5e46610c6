import type { Exchange, JsonObject } from '../transport/types.js';
import { asText } from '../util/text.js';

export interface ParsedJson {
  value?: unknown;
  problem?: string;
}

export function parseJsonText(text: string): ParsedJson {
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    return { problem: `not valid JSON (${(err as Error).message})` };
  }
}

export interface ResourcePayload extends ParsedJson {
  mimeType?: string;
}

/**
 * The JSON document a resources/read returned: the text (or base64 blob) of its first content.
 * `problem` says in plain words why there is none.
 */
export function resourceJson(ex: Exchange): ResourcePayload {
  if (ex.noResponse) return { problem: `no response (${ex.note ?? ex.noResponse})` };
  const response = ex.response!;
  if (response.error) {
    const e = response.error as JsonObject;
    return { problem: `a JSON-RPC error (${asText(e.code)}: ${asText(e.message ?? '')})` };
  }
  const result = response.result as JsonObject | undefined;
  // The tool form of the resource answers a read as a tool result: the same JSON, as text.
  if (ex.method === 'tools/call') {
    const content = Array.isArray(result?.content)
      ? (result.content as JsonObject[]).find((c) => isPlainObject(c) && typeof c.text === 'string')
      : undefined;
    if (content) return parseJsonText(content.text as string);
    return isPlainObject(result?.structuredContent)
      ? { value: result.structuredContent }
      : { problem: 'a tool result without text content' };
  }
  const contents = result?.contents;
  if (!Array.isArray(contents) || contents.length === 0) return { problem: 'a result without contents' };
  const first = contents[0] as JsonObject;
  const mimeType = typeof first.mimeType === 'string' ? first.mimeType : undefined;
  let text: string;
  if (typeof first.text === 'string') text = first.text;
  else if (typeof first.blob === 'string') text = Buffer.from(first.blob, 'base64').toString('utf8');
  else return { problem: 'contents without text or blob', mimeType };
  const parsed = parseJsonText(text);
  return { ...parsed, mimeType };
}

export function isPlainObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
