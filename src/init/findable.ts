// init's minimal descriptions: of the candidates (the first sentence, the first two, the title),
// the shortest that keeps the tool findable by the selection rule (src/rules/selection.ts).
import { LOW_TOP1, queriesOf, selectionFigures, type SelectionFigures } from '../rules/selection.js';
import { firstSentence } from '../util/tokens.js';
import { sentences } from '../util/words.js';

/** Rounds of lengthening: each gives the tools still hard to find their next candidate. */
const ROUNDS = 3;

export interface Findable {
  /** The minimal description chosen for each tool (by index). */
  descriptions: string[];
  figures: SelectionFigures;
}

function candidates(tool: Record<string, unknown>): string[] {
  const text = typeof tool.description === 'string' ? tool.description.replace(/\s+/g, ' ').trim() : '';
  const said = sentences(text);
  const out = [firstSentence(text)];
  if (said.length > 1) out.push(`${said[0]} ${said[1]}`.trim());
  if (typeof tool.title === 'string' && tool.title.trim()) out.push(`${tool.title.trim()}: ${firstSentence(text)}`);
  return [...new Set(out.filter(Boolean))].sort((a, b) => a.length - b.length);
}

export function findableDescriptions(tools: ReadonlyArray<Record<string, unknown>>): Findable {
  const options = tools.map(candidates);
  const choice = tools.map(() => 0);
  const queries = tools.map((tool) => queriesOf(undefined, typeof tool.description === 'string' ? tool.description : ''));
  const describe = () => tools.map((tool, i) => ({ name: String(tool.name), minimal: options[i]![choice[i]!] ?? '', queries: queries[i]! }));
  let figures = selectionFigures(describe());
  for (let round = 0; round < ROUNDS; round++) {
    let changed = false;
    figures.tools.forEach((f, i) => {
      if (f.queries > 0 && f.top1 < LOW_TOP1 && choice[i]! + 1 < options[i]!.length) {
        choice[i]!++;
        changed = true;
      }
    });
    if (!changed) break;
    figures = selectionFigures(describe());
  }
  return { descriptions: tools.map((_, i) => options[i]![choice[i]!] ?? ''), figures };
}
