// A tools/list's figures, defined once, for every command that gives them (init, the live checks,
// lint and lock): its tokens — every entry as the JSON tools/list carries, every full description
// as the JSON the resource serves — and how well each tool is found by its minimal description.
// A list is judged with the full descriptions it is served with: serve's tool form, which a folder
// holds no file for, is served the description serve writes for it (src/serve/descriptions.ts).
import { DESCRIPTIONS_TOOL, descriptionsToolFull } from '../protocol/server/payloads.js';
import { isToolForm } from '../protocol/tool-form.js';
import { countTokensOf, tokenSaving } from '../util/tokens.js';
import { selectionFigures, selectionTool, type SelectionFigures, type SelectionTool } from './selection.js';

type Entry = Record<string, unknown>;
type Full = Record<string, unknown>;

const nameOf = (entry: Entry) => (typeof entry.name === 'string' ? entry.name : undefined);

/** The full descriptions a list is served with: those given and, for serve's tool form when none is given, serve's. */
export function servedFulls(entries: readonly Entry[], given: ReadonlyMap<string, Full>): Map<string, Full> {
  const full = new Map(given);
  const form = entries.find((e) => nameOf(e) === DESCRIPTIONS_TOOL && isToolForm(e));
  if (form && !full.has(DESCRIPTIONS_TOOL)) {
    const others = entries.map(nameOf).filter((n): n is string => n !== undefined && n !== DESCRIPTIONS_TOOL);
    full.set(DESCRIPTIONS_TOOL, descriptionsToolFull(others));
  }
  return full;
}

export interface ListTokens {
  /** Every entry of the list (what every prompt carries). */
  listed: number;
  tools: number;
  /** The entries that have a full description: how many, their listed tokens, their full ones. */
  described: number;
  describedListed: number;
  full: number;
  /** 1 − describedListed / full: what reading a full description only when needed saves. */
  saving: number;
  perTool: Array<{ tool: string; listed: number; full?: number }>;
}

/** The token figures of a list and the full descriptions it is served with (the one definition). */
export async function listTokens(entries: readonly Entry[], full: ReadonlyMap<string, Full>): Promise<ListTokens> {
  const named = entries.filter((e) => nameOf(e) !== undefined);
  const counts = await countTokensOf(
    named.flatMap((e) => [JSON.stringify(e), ...(full.has(nameOf(e)!) ? [JSON.stringify(full.get(nameOf(e)!))] : [])]),
  );
  let at = 0;
  const perTool = named.map((e) => {
    const listed = counts[at++];
    return { tool: nameOf(e)!, listed, ...(full.has(nameOf(e)!) ? { full: counts[at++] } : {}) };
  });
  const described = perTool.filter((t) => t.full !== undefined);
  const describedListed = described.reduce((n, t) => n + t.listed, 0);
  const fullTokens = described.reduce((n, t) => n + (t.full ?? 0), 0);
  return {
    listed: perTool.reduce((n, t) => n + t.listed, 0),
    tools: perTool.length,
    described: described.length,
    describedListed,
    full: fullTokens,
    saving: tokenSaving(describedListed, fullTokens),
    perTool,
  };
}

/**
 * How well each tool of a list is found by its minimal description (the one definition): BM25 over
 * the names and listed descriptions, the queries from each tool's full description (without one,
 * its listed text beyond the first sentence).
 */
export function listSelection(
  entries: readonly Entry[],
  full: ReadonlyMap<string, Full>,
): { tools: SelectionTool[]; figures: SelectionFigures } {
  const tools = entries
    .filter((e) => nameOf(e) !== undefined)
    .map((e) =>
      selectionTool(nameOf(e)!, typeof e.description === 'string' ? e.description : '', full.get(nameOf(e)!)),
    );
  return { tools, figures: selectionFigures(tools) };
}
