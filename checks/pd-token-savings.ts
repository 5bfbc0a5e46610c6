import { defineLiveCheck } from '../src/run/check.js';
import type { CheckResult, TokenFigures } from '../src/generated/report.js';
import { countTokensOf, preloadTokenizer, TOKEN_ENCODING, tokenSaving } from '../src/util/tokens.js';
import { minimalListing } from '../src/rules/minimal-description.js';
import { DESCRIPTIONS_TOOL, descriptionsToolEntry } from '../src/protocol/server/payloads.js';
import { listTokens } from '../src/rules/list-figures.js';

/** Below this saving, progressive disclosure is not worth its extra round trip (DESIGN: warn). */
const WARN_BELOW = 0.5;

const messages = {
  'no-descriptions-resource':
    'No tool_descriptions resource, so the saving cannot be measured; the estimate above says what a minimal tools/list would cost.',
  'no-full-descriptions':
    'No full description could be fetched, so there is nothing to compare (see pd-full-descriptions).',
  'tool-tokens': "Tool '{tool}': {listed} tokens in tools/list, {full} in its full description.",
  'total-tokens':
    'tools/list: {listed} tokens for {tools|tool}; their full descriptions: {full} tokens; saving {percent} % ({encoding}).',
  'total-tokens-part':
    'tools/list: {listed} tokens for {tools|tool}; the full descriptions of the {described} read: {full} tokens against their {describedListed} listed; saving {percent} % ({encoding}).',
  'tool-cost':
    "Tool '{tool}': {listed} tokens in tools/list; listed minimally (name, first sentence, title, annotations, no schema) ≈ {estimate} (an estimate).",
  'list-cost':
    '{tools|tool} cost {listed} tokens in every prompt; listed minimally ≈ {estimate} (as mcp-pd-check serve would list them, its tool form among them), about {percent} % less (an estimate, {encoding}).',
  'low-saving': {
    message:
      'Progressive disclosure saves only {percent} % of the tokens here (tools/list {listed} vs full {full}); the spec promises 80–90 %.',
    hint: 'Shorten tools/list descriptions to one sentence and move details, examples and schemas into the full descriptions.',
  },
} as const;

export default defineLiveCheck({
  id: 'pd-token-savings',
  title: 'tools/list costs far fewer tokens than the full descriptions (the spec claims 80–90 % savings)',
  spec: { doc: 'progressive-disclosure', section: '1.2', level: 'SHOULD', requirements: [] },
  needs: 'session',
  reads: ['descriptions'],
  // Over stdio the servers' processes keep every core busy: a thread of its own would only add its start (measured).
  preload: ({ cheapSessions }) => preloadTokenizer(cheapSessions),
  messages,
  tokenFigures,
  async run(ctx) {
    const named = ctx.discovery.tools.filter((t) => typeof t.name === 'string');
    if (!ctx.facts.descriptions.resource) {
      // Today's cost on every server, and what a progressive-disclosure list would cost instead: what
      // `mcp-pd-check serve` lists in front of it (each tool's minimal listing, and its tool form).
      const form = named.some((t) => t.name === DESCRIPTIONS_TOOL) ? [] : [descriptionsToolEntry()];
      const counts = await countTokensOf([
        ...named.flatMap((tool) => [JSON.stringify(tool), JSON.stringify(minimalListing(tool))]),
        ...form.map((entry) => JSON.stringify(entry)),
      ]);
      let listed = 0;
      let estimate = 0;
      for (const [i, tool] of named.entries()) {
        const now = counts[2 * i];
        const minimal = counts[2 * i + 1];
        listed += now;
        estimate += minimal;
        ctx.info(
          'tool-cost',
          { tool: tool.name, listed: now, estimate: minimal, encoding: TOKEN_ENCODING },
          { location: { tool: tool.name as string } },
        );
      }
      for (const formTokens of counts.slice(2 * named.length)) estimate += formTokens;
      if (named.length)
        ctx.info('list-cost', {
          tools: named.length,
          listed,
          estimate,
          percent: Math.round(tokenSaving(estimate, listed) * 100),
          encoding: TOKEN_ENCODING,
        });
      ctx.skip('no-descriptions-resource');
    }
    // The one definition of a list's tokens (src/rules/list-figures.ts), as init, lint and lock count them.
    const t = await listTokens(named, ctx.facts.descriptions.full);
    if (!t.described) ctx.skip('no-full-descriptions');
    for (const tool of t.perTool.filter((x) => x.full !== undefined))
      ctx.info(
        'tool-tokens',
        { tool: tool.tool, listed: tool.listed, full: tool.full!, encoding: TOKEN_ENCODING },
        { location: { tool: tool.tool } },
      );
    const percent = Math.round(t.saving * 100);
    const all = t.described === t.tools;
    ctx.info(all ? 'total-tokens' : 'total-tokens-part', {
      listed: t.listed,
      full: t.full,
      tools: t.tools,
      ...(all ? {} : { described: t.described, describedListed: t.describedListed }),
      percent,
      saving: Math.round(t.saving * 1000) / 1000,
      encoding: TOKEN_ENCODING,
    });
    if (t.saving < WARN_BELOW)
      ctx.fail(
        'low-saving',
        { percent, listed: t.describedListed, full: t.full },
        { transcript: ctx.discovery.toolsExchanges },
      );
  },
});

/** The verdict's token figures, from this check's own findings (measured, or estimated without the resource). */
function tokenFigures(result: CheckResult | undefined): TokenFigures | undefined {
  const findings = result?.findings ?? [];
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const measured = findings.filter((f) => f.code === 'tool-tokens');
  const estimated = findings.filter((f) => f.code === 'tool-cost');
  const total = findings.find(
    (f) => f.code === 'total-tokens' || f.code === 'total-tokens-part' || f.code === 'list-cost',
  );
  if (!total) return undefined;
  const perTool = (measured.length ? measured : estimated).map((f) => ({
    tool: String(f.args.tool),
    listed: num(f.args.listed) ?? 0,
    ...(num(f.args.full) !== undefined ? { full: num(f.args.full) } : {}),
    ...(num(f.args.estimate) !== undefined ? { estimate: num(f.args.estimate) } : {}),
  }));
  return {
    encoding: String(total.args.encoding),
    listed: num(total.args.listed) ?? 0,
    ...(num(total.args.full) !== undefined ? { full: num(total.args.full) } : {}),
    ...(num(total.args.estimate) !== undefined ? { estimate: num(total.args.estimate) } : {}),
    ...(num(total.args.described) !== undefined
      ? {
          described: {
            tools: num(total.args.described)!,
            listed: num(total.args.describedListed) ?? 0,
            of: num(total.args.tools) ?? 0,
          },
        }
      : {}),
    tools: perTool,
  };
}
