// The selection rule on N synthetic tools, each with a distinct minimal description and five queries.
import { selectionFigures, selectionProblems, type SelectionTool } from '../../src/rules/selection.js';

const NOUNS = [
  'note',
  'file',
  'issue',
  'invoice',
  'customer',
  'order',
  'ticket',
  'report',
  'image',
  'calendar',
  'message',
  'user',
  'project',
  'branch',
  'commit',
  'page',
];
const VERBS = [
  'lists',
  'reads',
  'creates',
  'updates',
  'deletes',
  'searches',
  'exports',
  'archives',
  'restores',
  'shares',
];

export function syntheticTools(n: number): SelectionTool[] {
  return Array.from({ length: n }, (_, i) => {
    const verb = VERBS[i % VERBS.length];
    const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length];
    const tag = `zone${Math.floor(i / (VERBS.length * NOUNS.length))}`;
    return {
      name: `${verb.replace(/s$/, '')}_${noun}_${i}`,
      minimal: `${verb[0].toUpperCase()}${verb.slice(1)} ${noun}s in ${tag} for a workspace.`,
      queries: [
        `${verb} the ${noun} in ${tag}`,
        `Use it to ${verb.replace(/s$/, '')} a ${noun}`,
        `${noun} ${tag} ${i}`,
        `Example: ${verb} ${noun} number ${i}`,
        `When a ${noun} must be handled in ${tag}`,
      ],
    };
  });
}

export function timeSelection(n: number, runs = 5): number {
  const tools = syntheticTools(n);
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    selectionProblems(tools, selectionFigures(tools));
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}
