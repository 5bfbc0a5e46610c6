import { listSelection } from '../src/rules/list-figures.js';
import { defineLiveCheck } from '../src/run/check.js';
import { MIN_QUERIES, SELECTION_MESSAGES, selectionFigureArgs, selectionProblems } from '../src/rules/selection.js';
import type { CheckResult, SelectionFigures } from '../src/generated/report.js';

export default defineLiveCheck({
  id: 'pd-selection-fidelity',
  title:
    'Each tool is still found by its minimal description (BM25 over names and minimal descriptions, queries from its own description)',
  spec: { doc: 'progressive-disclosure', section: '3.1', level: 'MUST', requirements: [] },
  needs: 'session',
  reads: ['descriptions'],
  messages: SELECTION_MESSAGES,
  selectionFigures: verdictFigures,
  async run(ctx) {
    const entries = ctx.discovery.tools.filter((t) => typeof t.name === 'string');
    if (!entries.length) return;
    // With the resource: queries from the full descriptions; without: the listed text beyond its first
    // sentence, and the first sentence as the minimal description a progressive-disclosure list would keep.
    const { tools, figures } = listSelection(entries, ctx.facts.descriptions.full);
    // A share of one query is a coin toss: with no tool of MIN_QUERIES, nothing is judged (not a pass at 0 %).
    if (!figures.tools.some((x) => x.queries >= MIN_QUERIES))
      ctx.skip('too-few-queries', {
        queries: figures.queries,
        tools: figures.tools.filter((x) => x.queries > 0).length,
        min: MIN_QUERIES,
      });
    // The proof is what tools/list said: the minimal descriptions the ranking read.
    const transcript = ctx.discovery.toolsExchanges;
    for (const p of selectionProblems(tools, figures)) ctx.problem(p, { location: { tool: p.tool }, transcript });
    for (const f of figures.tools.filter((x) => x.queries > 0))
      ctx.info('selection-figures', selectionFigureArgs(f), { location: { tool: f.tool } });
    ctx.info('selection-summary', {
      percent: Math.round(figures.top1 * 100),
      queries: figures.queries,
      mrr: figures.mrr.toFixed(2),
      tools: tools.length,
      top1: figures.top1,
    });
  },
});

/** The verdict's selection figures, from this check's own info findings. */
function verdictFigures(result: CheckResult | undefined): SelectionFigures | undefined {
  const findings = result?.findings ?? [];
  const summary = findings.find((f) => f.code === 'selection-summary');
  if (!summary || !summary.args.queries) return undefined;
  const figure = (args: Record<string, unknown>) => ({
    top1: Number(args.top1 ?? 0),
    mrr: Number(args.mrr ?? 0),
    queries: Number(args.queries ?? 0),
  });
  const listed = Number(summary.args.tools);
  return {
    ...figure(summary.args),
    ...(Number.isInteger(listed) ? { listed } : {}),
    tools: findings
      .filter((f) => f.code === 'selection-figures')
      .map((f) => ({ tool: String(f.args.tool), ...figure(f.args) })),
  };
}
