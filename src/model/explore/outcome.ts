import { classifyCall, MISSING_TOOL_SELECTION, reachedTool } from '../../protocol/calls.js';
import { anySignalledCode, findSignalledError } from '../../protocol/errors.js';
import { isDescriptionEntry } from '../../protocol/fetch.js';
import { isPlainObject, resourceJson } from '../../protocol/payload.js';
import type { Exchange } from '../../transport/types.js';
import { clip } from '../../util/text.js';
import { afterEndOf } from '../../transport/exchange-times.js';
import { describeMove, type Move } from './moves.js';

/** The numbered steps of a sequence as a report shows them: each move, and what came back. */
export function numberedSteps(moves: readonly Move[], exchanges: readonly Exchange[][]): string[] {
  return moves.map((move, i) => {
    const answers = (exchanges[i] ?? []).map(answerOf);
    const said =
      move.kind === 'pause'
        ? ''
        : answers.length
          ? ` → ${answers.join('; ')}`
          : move.kind === 'call'
            ? ' → not called (the call plan does not allow it)'
            : '';
    return `${i + 1}. ${describeMove(move)}${said}`;
  });
}

/** What one answer was, in a few words. */
export function answerOf(ex: Exchange): string {
  const ended = afterEndOf(ex);
  if (ended) return ended.status !== undefined ? `HTTP ${ended.status}` : 'no answer';
  if (reachedTool(ex)) return 'it ran (it reported progress; cancelled)';
  if (ex.noResponse) return `no response (${clip(ex.note ?? ex.noResponse, 80)})`;
  if (ex.method === 'tools/call') {
    const outcome = classifyCall(ex);
    if (outcome.kind === 'refused') return `refused with ${outcome.signal.code}`;
    const code = anySignalledCode(ex);
    if (ex.response?.error) return `a JSON-RPC error${code ? ` (${code})` : ''}`;
    return (ex.response?.result as { isError?: boolean } | undefined)?.isError
      ? `it ran and failed${code ? ` (${code})` : ''}`
      : 'it ran';
  }
  if (ex.method === 'tools/list') {
    const tools = (ex.response?.result as { tools?: unknown[] } | undefined)?.tools;
    return Array.isArray(tools) ? `${tools.length} tools` : 'no tool list';
  }
  if (ex.method === 'resources/read') {
    if (findSignalledError(ex, MISSING_TOOL_SELECTION)) return MISSING_TOOL_SELECTION;
    const payload = resourceJson(ex);
    if (!isPlainObject(payload.value)) return clip(payload.problem ?? 'no JSON object', 80);
    const parts = Object.entries(payload.value).map(([key, value]) =>
      isDescriptionEntry(value)
        ? `a description under '${key}'`
        : isPlainObject(value) && 'error' in value
          ? `a not-found entry for '${key}'`
          : `'${key}'`,
    );
    return parts.length ? clip(parts.join(', '), 200) : 'an empty object';
  }
  return ex.response?.error ? 'an error' : 'an answer';
}
