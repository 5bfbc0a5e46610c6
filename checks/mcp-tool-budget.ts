import { defineLiveCheck } from '../src/run/check.js';
import type { CheckResult, ClientBudgets } from '../src/generated/report.js';
import { budgetFits, type BudgetFit } from '../src/core/client-budgets.js';
import { countTokensOf, preloadTokenizer, TOKEN_ENCODING } from '../src/util/tokens.js';
import { asText } from '../src/util/text.js';

const messages = {
  'list-size': '{tools|tool} listed; tools/list costs {tokens} tokens ({encoding}).',
  'over-max-tools': {
    message:
      'The server lists {tools} tools, more than the budget of {max} (--max-tools, or maxTools in a config file).',
    hint: 'List fewer tools (group them, or split the server by role), or raise the budget in the same change if the growth is meant.',
  },
  'over-max-tokens': {
    message:
      'tools/list costs {tokens} tokens, more than the budget of {max} ({encoding}; --max-tokens, or maxTokens in a config file).',
    hint: 'List each tool in one line and move details into its full description (progressive disclosure), or raise the budget in the same change if the growth is meant.',
  },
  'client-drops': {
    message: 'Past the budget of {client}: {figure} against {limit}; it {what}.',
    hint: 'Fewer tools reach every client: group tools, split the server by role, or let clients load tools on demand (progressive disclosure keeps each listed tool to one line).',
  },
  'client-over': 'Past the budget of {client}: {figure} against {limit}; it {what}.',
  'client-near': 'Over the soft limit of {client} ({soft}), below its limit: {figure} against {limit}; it {what}.',
  'client-fits': 'Within the budget of {client}: {figure} against {limit}.',
} as const;

export default defineLiveCheck({
  id: 'mcp-tool-budget',
  title:
    'tools/list stays within the budgets given (--max-tools, --max-tokens), and what each client does with its size is said',
  // A budget the user gave is a MUST of this run; what a client does with the size is a note or a warning.
  spec: { doc: 'mcp-pd-check', section: 'budgets', level: 'MUST', requirements: [] },
  needs: 'session',
  preload: ({ cheapSessions }) => preloadTokenizer(cheapSessions),
  messages,
  clientBudgets,
  async run(ctx) {
    const tools = ctx.discovery.tools;
    // What every prompt carries: each listed definition, as the token check counts it.
    const tokens = (await countTokensOf(tools.map((t) => JSON.stringify(t)))).reduce((a, b) => a + b, 0);
    const proof = ctx.discovery.toolsExchanges;
    const { maxTools, maxTokens } = ctx.options;
    if (maxTools !== undefined && tools.length > maxTools)
      ctx.fail('over-max-tools', { tools: tools.length, max: maxTools }, { transcript: proof });
    if (maxTokens !== undefined && tokens > maxTokens)
      ctx.fail('over-max-tokens', { tokens, max: maxTokens, encoding: TOKEN_ENCODING }, { transcript: proof });
    for (const fit of budgetFits({ tools: tools.length, tokens })) {
      const args = {
        client: fit.client,
        figure: fit.figure,
        limit: fit.limit,
        soft: fit.soft ?? '',
        what: fit.what ?? '',
        fit: fit.fit,
        drops: fit.drops,
      };
      // A client that leaves tools out is a warning; one that finds them another way, a note.
      if (fit.fit === 'over' && fit.drops) ctx.warn('client-drops', args, { transcript: proof });
      else ctx.info(fit.fit === 'over' ? 'client-over' : fit.fit === 'near' ? 'client-near' : 'client-fits', args);
    }
    ctx.info('list-size', { tools: tools.length, tokens, encoding: TOKEN_ENCODING });
    ctx.prove('list-size', { tools: tools.length, tokens, encoding: TOKEN_ENCODING }, proof);
  },
});

/** The verdict's client budgets, from this check's own findings. */
function clientBudgets(result: CheckResult | undefined): ClientBudgets | undefined {
  const findings = result?.findings ?? [];
  const size = findings.find((f) => f.code === 'list-size');
  if (!size) return undefined;
  const clients: BudgetFit[] = findings
    .filter((f) => f.code.startsWith('client-'))
    .map((f) => ({
      client: String(f.args.client),
      fit: f.args.fit as BudgetFit['fit'],
      figure: String(f.args.figure),
      limit: String(f.args.limit),
      ...(f.args.soft ? { soft: asText(f.args.soft) } : {}),
      ...(f.args.what ? { what: asText(f.args.what) } : {}),
      drops: f.args.drops === true,
    }));
  return {
    tools: Number(size.args.tools),
    tokens: Number(size.args.tokens),
    encoding: String(size.args.encoding),
    clients,
  };
}
