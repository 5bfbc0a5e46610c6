import type { ToolCard } from '../generated/tool-card.js';
import { isPlainObject } from '../protocol/payload.js';
import { asText } from '../util/text.js';

/** L3 needs a tested_with entry younger than this. */
export const L3_MAX_AGE_DAYS = 90;
const DAY_MS = 86_400_000;

export type CardLevel = 'none' | 'L1' | 'L2' | 'L3';

/** The Tool Card conformance level: L1 schema-valid, L2 plus refusal_modes, L3 plus a recent test. */
export function cardLevel(
  card: ToolCard,
  schemaValid: boolean,
  now: Date,
): { level: CardLevel; why: string; recent: string[] } {
  const t = now.getTime();
  const recent = (Array.isArray(card.tested_with) ? card.tested_with : [])
    .filter((x) => {
      const at = Date.parse(asText(x?.tested_at));
      return Number.isFinite(at) && at <= t && t - at <= L3_MAX_AGE_DAYS * DAY_MS;
    })
    .map((x) => asText(x.llm));
  const level: CardLevel = !schemaValid
    ? 'none'
    : !Array.isArray(card.safety?.refusal_modes)
      ? 'L1'
      : recent.length
        ? 'L3'
        : 'L2';
  const why = {
    none: 'below L1: the card is not schema-valid',
    L1: 'L1 (Schema); L2 needs safety.refusal_modes (it may be empty)',
    L2: `L2 (Safety); L3 needs a tested_with entry from the last ${L3_MAX_AGE_DAYS} days`,
    L3: `L3 (Trial): tested with ${recent.join(', ')} within ${L3_MAX_AGE_DAYS} days`,
  }[level];
  return { level, why, recent };
}

/** The JSON pointer of the first place two JSON values differ (key order ignored), or undefined. */
export function firstDifference(a: unknown, b: unknown, pointer = ''): string | undefined {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return pointer;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${pointer}/${i}`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[key], b[key], `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  return Object.is(a, b) ? undefined : pointer;
}
