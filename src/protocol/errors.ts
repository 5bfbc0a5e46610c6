import type { Exchange, JsonObject } from '../transport/types.js';
import { parseJsonText } from './payload.js';

/**
 * How a server signalled a string error code. The spec shows payloads, not the wire form, so
 * DESIGN accepts several forms; the report says which one a server used.
 */
export type ErrorForm =
  | 'JSON-RPC error data.code'
  | 'JSON-RPC error data.error.code'
  | 'JSON text in a successful result'
  | 'structuredContent of a tool result'
  | 'only in an error message text';

export interface SignalledError {
  code: string;
  form: ErrorForm;
  /** False for forms a client cannot read reliably (the code only in message text). */
  accepted: boolean;
  /** The object holding the code and its companions (message, examples, resource_uri…). */
  payload: JsonObject;
  /** For tool results: whether `isError: true` was set. */
  isError?: boolean;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A JSON-RPC error whose `code` is not an integer breaks JSON-RPC itself (the SDK client drops it). */
export function invalidErrorCode(ex: Exchange): string | undefined {
  const error = ex.response?.error;
  if (!isObject(error)) return undefined;
  if (typeof error.code === 'number' && Number.isInteger(error.code)) return undefined;
  return `the JSON-RPC error has code ${JSON.stringify(error.code)}, but JSON-RPC requires an integer there`;
}

/** Texts of a resources/read or tools/call result that may hold a JSON payload. */
function resultTexts(result: JsonObject): string[] {
  const texts: string[] = [];
  for (const key of ['contents', 'content']) {
    const list = result[key];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (!isObject(item)) continue;
      if (typeof item.text === 'string') texts.push(item.text);
      else if (typeof item.blob === 'string') texts.push(Buffer.from(item.blob, 'base64').toString('utf8'));
    }
  }
  return texts;
}

function errorObject(value: unknown): JsonObject | undefined {
  if (!isObject(value)) return undefined;
  if (isObject(value.error) && typeof value.error.code === 'string') return value.error;
  return undefined;
}

/** Finds `code` however it was signalled; undefined when the exchange does not carry it. */
export function findSignalledError(ex: Exchange, code: string): SignalledError | undefined {
  const response = ex.response;
  if (!response) return undefined;
  const error = response.error;
  if (isObject(error)) {
    const data = error.data;
    if (isObject(data) && data.code === code)
      return { code, form: 'JSON-RPC error data.code', accepted: true, payload: data };
    const nested = errorObject(data);
    if (nested && nested.code === code)
      return { code, form: 'JSON-RPC error data.error.code', accepted: true, payload: nested };
    if (error.code === code) {
      return { code, form: 'only in an error message text', accepted: false, payload: { ...error, code } };
    }
    if (typeof error.message === 'string' && error.message.includes(code)) {
      return { code, form: 'only in an error message text', accepted: false, payload: error };
    }
    return undefined;
  }
  const result = response.result;
  if (!isObject(result)) return undefined;
  const isError = result.isError === true;
  const structured = errorObject(result.structuredContent);
  if (structured && structured.code === code) {
    return { code, form: 'structuredContent of a tool result', accepted: true, payload: structured, isError };
  }
  for (const text of resultTexts(result)) {
    const parsed = errorObject(parseJsonText(text).value);
    if (parsed && parsed.code === code)
      return { code, form: 'JSON text in a successful result', accepted: true, payload: parsed, isError };
    if (text.includes(code))
      return { code, form: 'only in an error message text', accepted: false, payload: { text }, isError };
  }
  return undefined;
}

/** Any string error code the exchange carries in an accepted form (to say what came instead). */
export function anySignalledCode(ex: Exchange): string | undefined {
  const response = ex.response;
  if (!response) return undefined;
  if (isObject(response.error)) {
    const data = response.error.data;
    if (isObject(data) && typeof data.code === 'string') return data.code;
    return errorObject(data)?.code as string | undefined;
  }
  const result = response.result;
  if (!isObject(result)) return undefined;
  const structured = errorObject(result.structuredContent);
  if (structured) return structured.code as string;
  for (const text of resultTexts(result)) {
    const parsed = errorObject(parseJsonText(text).value);
    if (parsed) return parsed.code as string;
  }
  return undefined;
}
