// What clients do with many tools, as shipped data: whether a server fits each client's budget
// depends on its tool count or on what its tools/list costs against a context window. Every figure
// names its source and date; docs/client-budgets.md gives the links. To update: change a row here.
import { formatNumber } from '../util/text.js';

export interface ClientBudget {
  /** The client as the reach line names it (or the guidance's author). */
  client: string;
  /** What is counted: listed tools, or tokens of tools/list against a share of a context window. */
  measure: 'tools' | 'tokens';
  /** The limit: a tool count, or a share of `contextTokens`. */
  limit: number;
  /** Where the client starts to change how it treats the tools (a count or a share), below the limit. */
  soft?: number;
  /** The context window a share is of. */
  contextTokens?: number;
  /** What the client does past the limit, after its name ("drops the tools past 128 …"). */
  over: string;
  /** What it does past the soft limit. */
  near?: string;
  /** Whether past the limit the model loses tools (a warning), rather than finding them another way. */
  drops: boolean;
  source: string;
  date: string;
}

export const CLIENT_BUDGETS: readonly ClientBudget[] = [
  {
    client: 'VS Code (Copilot)',
    measure: 'tools',
    limit: 128,
    soft: 64,
    over: 'accepts at most 128 tools per request: the others are left out',
    near: 'groups tools into virtual tools from 64 on (the model sees a group until it expands it)',
    drops: true,
    source:
      'VS Code docs, "Use tools in chat" (128 tools per request); setting github.copilot.chat.virtualTools.threshold',
    date: '2026',
  },
  {
    client: 'Cursor',
    measure: 'tools',
    limit: 40,
    over: 'sends about the first 40 tools to its agent: the others are not seen',
    drops: true,
    source: 'Cursor docs, Model Context Protocol (tool limit)',
    date: '2026',
  },
  {
    client: 'Claude Code',
    measure: 'tokens',
    limit: 0.1,
    contextTokens: 200_000,
    over: 'defers the tools behind its tool search (names at start, definitions when searched)',
    drops: false,
    source: 'Claude Code docs, MCP tool search (ENABLE_TOOL_SEARCH=auto: 10 % of the context window)',
    date: '2026-01',
  },
  {
    client: 'MCP client best practices',
    measure: 'tokens',
    limit: 0.05,
    soft: 0.01,
    contextTokens: 200_000,
    over: 'advises progressive discovery: load tool definitions on demand, not up front',
    near: 'advises progressive discovery from 1–5 % of the context window',
    drops: false,
    source: 'modelcontextprotocol.io, Client Best Practices (progressive tool discovery)',
    date: '2026',
  },
  {
    client: 'OpenAI (Codex, ChatGPT)',
    measure: 'tools',
    limit: 20,
    over: 'advises tool search (deferred loading) past about 20 functions at the start of a turn',
    drops: false,
    source: 'OpenAI docs, function calling best practices and tool search (defer_loading)',
    date: '2026',
  },
];

/** How a server fits one client's budget. */
export interface BudgetFit {
  client: string;
  fit: 'fits' | 'near' | 'over';
  /** The server's figure, and the limit, in the budget's unit ("150 tools", "128 tools"). */
  figure: string;
  limit: string;
  /** Where the client starts to act before its limit, when the fit is near ("2,000 tokens (1 % of a 200k context)"). */
  soft?: string;
  /** What the client does (past the limit, or past the soft limit). */
  what?: string;
  drops: boolean;
}

/** A tool count or a token count, as a budget row counts it. */
export function budgetFits(figures: { tools: number; tokens?: number }): BudgetFit[] {
  return CLIENT_BUDGETS.flatMap((b) => {
    if (b.measure === 'tools') return [fitOf(b, figures.tools, b.limit, b.soft, (n) => `${n} tools`)];
    if (figures.tokens === undefined) return [];
    const context = b.contextTokens!;
    const tokens = (share: number) => Math.round(share * context);
    const label = (n: number) => `${formatNumber(n)} tokens`;
    const fit = fitOf(b, figures.tokens, tokens(b.limit), b.soft !== undefined ? tokens(b.soft) : undefined, label);
    const share = (s: number) => `${Math.round(s * 100)} % of a ${context / 1000}k context`;
    return [
      {
        ...fit,
        limit: `${fit.limit} (${share(b.limit)})`,
        ...(fit.soft !== undefined && b.soft !== undefined ? { soft: `${fit.soft} (${share(b.soft)})` } : {}),
      },
    ];
  });
}

function fitOf(
  b: ClientBudget,
  value: number,
  limit: number,
  soft: number | undefined,
  label: (n: number) => string,
): BudgetFit {
  const fit = value > limit ? 'over' : soft !== undefined && value > soft ? 'near' : 'fits';
  return {
    client: b.client,
    fit,
    figure: label(value),
    limit: label(limit),
    ...(fit === 'near' && soft !== undefined ? { soft: label(soft) } : {}),
    drops: b.drops,
    ...(fit === 'over' ? { what: b.over } : fit === 'near' && b.near ? { what: b.near } : {}),
  };
}
