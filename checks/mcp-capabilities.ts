import { defineLiveCheck } from '../src/run/check.js';
import { isPlainObject } from '../src/protocol/payload.js';
import type { LiveContext } from '../src/run/context.js';
import type { Exchange } from '../src/transport/types.js';

/** What a declared capability promises to answer: its list method. */
const LIST_METHODS = { tools: 'tools/list', resources: 'resources/list', prompts: 'prompts/list' } as const;
type Listed = keyof typeof LIST_METHODS;

const messages = {
  'no-tools-capability': {
    message:
      'The server lists {count|tool} but its initialize result does not declare the tools capability (MCP: servers that support tools MUST declare it).',
    hint: 'Declare "capabilities": { "tools": {} } in the initialize result (the SDKs do when you register a tool handler).',
  },
  'no-resources-capability': {
    message:
      'The server {why}, but its initialize result does not declare the resources capability (MCP: SHOULD; clients may not read resources otherwise).',
    hint: 'Declare "capabilities": { "resources": {} } in the initialize result.',
  },
  'declared-not-answered': {
    message:
      'The initialize result declares the {capability} capability, but {method} answers "Method not found" (-32601): what a server declares it must serve.',
    hint: 'Either implement {method} or remove "{capability}" from the declared capabilities.',
  },
  declared: 'Capabilities declared: {capabilities}.',
} as const;

export default defineLiveCheck({
  id: 'mcp-capabilities',
  title:
    'The tools capability is declared by a server with tools, resources by one that serves them, and what is declared answers',
  spec: { doc: 'mcp-tools', section: 'Capabilities', level: 'MUST', requirements: ['MCP-cap-a', 'MCP-result-c'] },
  needs: 'session',
  // Embedded resources show only in tool results: it reads what every session received.
  reads: ['descriptions', 'traffic'],
  sessionUse:
    'the probe (one prompts/list when prompts are declared); it reads the tool results every session received, so it runs last',
  messages,
  async run(ctx) {
    const { capabilities, initializeExchanges } = ctx.discovery;
    const declared = Object.keys(capabilities).filter((k) => isPlainObject(capabilities[k]));
    ctx.info('declared', { capabilities: declared.length ? declared : 'none' });

    const tools = ctx.discovery.tools.length;
    if (tools && !declared.includes('tools'))
      ctx.fail(
        'no-tools-capability',
        { count: tools },
        { transcript: [...initializeExchanges, ...ctx.discovery.toolsExchanges.slice(0, 1)] },
      );

    const why = await resourceUse(ctx);
    if (why && !declared.includes('resources'))
      ctx.warn('no-resources-capability', { why: why.text }, { transcript: [...initializeExchanges, ...why.proof] });

    for (const capability of Object.keys(LIST_METHODS) as Listed[]) {
      if (!declared.includes(capability)) continue;
      const method = LIST_METHODS[capability];
      const ex =
        capability === 'tools'
          ? ctx.discovery.toolsExchanges[0]
          : capability === 'resources'
            ? ctx.discovery.resourcesExchanges[0]
            : await ctx.probe().request(method);
      if (ex && (ex.response?.error as { code?: unknown } | undefined)?.code === -32601) {
        ctx.fail('declared-not-answered', { capability, method }, { transcript: [...initializeExchanges, ex] });
      }
    }
  },
});

/** Why the server needs the resources capability, with the exchange that shows it; undefined if it does not. */
async function resourceUse(
  ctx: LiveContext<keyof typeof messages>,
): Promise<{ text: string; proof: Exchange[] } | undefined> {
  const listed = ctx.discovery.resources.length;
  if (listed)
    return {
      text: `lists ${listed} resource${listed === 1 ? '' : 's'}`,
      proof: ctx.discovery.resourcesExchanges.slice(0, 1),
    };
  const resolved = ctx.facts.descriptions.resource;
  if (resolved) return { text: `serves the tool_descriptions resource (${resolved.uri})`, proof: [] };
  for (const session of ctx.facts.traffic) {
    for (const ex of session.exchanges) {
      const content =
        ex.method === 'tools/call' && isPlainObject(ex.response?.result) ? ex.response.result.content : undefined;
      if (Array.isArray(content) && content.some((c) => isPlainObject(c) && c.type === 'resource'))
        return { text: 'embeds resources in tool results', proof: [ex] };
    }
  }
  return undefined;
}
