import { isPlainObject, resourceJson } from '../protocol/payload.js';
import type { Exchange } from '../transport/types.js';
import { CRITERION, type RuleBreak } from './world.js';

/** Where one read put the description of one tool it named. */
export interface Presence {
  presence: 'keyed' | 'wrapped' | 'absent';
  items: string[];
  unknown: string[];
  ex: Exchange;
}

/**
 * Per tool, over every read that named it: a description missing from every read, or found only
 * one level down (not under its own key), breaks the answer's keys (criterion 4); one that comes
 * alone but not beside others breaks ?tools=a,b (3), or beside an unknown name is spoiled by it (9).
 */
export function presenceBreaks(presence: ReadonlyMap<string, readonly Presence[]>): RuleBreak[] {
  const breaks: RuleBreak[] = [];
  for (const [tool, reads] of presence) {
    const missing = reads.filter((r) => r.presence === 'absent');
    const misplaced = reads.find((r) => r.presence === 'wrapped');
    if (misplaced || (missing.length && missing.length === reads.length)) {
      breaks.push({
        check: CRITERION.answer,
        code: 'missing-entry',
        args: { tool },
        level: 'fail',
        tool,
        proof: [(misplaced ?? missing[0]).ex],
      });
    }
    if (missing.length === reads.length) continue;
    for (const r of missing) {
      const keys = Object.keys(parsedKeys(r.ex));
      if (r.unknown.length)
        breaks.push({
          check: CRITERION.unknown,
          code: 'spoils-known',
          args: { tool, name: r.unknown[0], problem: `no description of '${tool}' came` },
          level: 'fail',
          tool,
          proof: [r.ex],
        });
      else if (r.items.length === 1)
        breaks.push({
          check: CRITERION.names,
          code: 'single-fetch-no-entry',
          args: { tool, keys: keys.length ? keys : 'none' },
          level: 'fail',
          tool,
          proof: [r.ex],
        });
      else
        breaks.push({
          check: CRITERION.names,
          code: 'multi-fetch-failed',
          args: {
            count: r.items.length,
            sample: r.items.slice(0, 3).join(','),
            problem: `returned no description for '${tool}'`,
          },
          level: 'fail',
          tool,
          proof: [r.ex],
        });
    }
  }
  return breaks;
}

function parsedKeys(ex: Exchange): Record<string, unknown> {
  const value = resourceJson(ex).value;
  return isPlainObject(value) ? value : {};
}
