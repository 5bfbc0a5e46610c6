import { defineLiveCheck } from '../src/run/check.js';
import { TOOL_NAME_MESSAGES, toolListNameProblems } from '../src/rules/tool-names.js';

export default defineLiveCheck({
  id: 'mcp-tool-names',
  title: 'Tool names are 1–128 characters of A-Z a-z 0-9 _ - . and unique (case-sensitive)',
  spec: {
    doc: 'mcp-tools',
    section: 'Tool Names',
    level: 'SHOULD',
    requirements: ['MCP-name-a', 'MCP-name-b', 'MCP-name-c', 'MCP-name-d', 'MCP-name-e'],
  },
  needs: 'session',
  messages: TOOL_NAME_MESSAGES,
  async run(ctx) {
    const { tools, toolsExchanges: transcript } = ctx.discovery;
    // The same rules as the lint of a saved tools/list, with the same codes.
    for (const p of toolListNameProblems(tools)) {
      const name = typeof p.args.name === 'string' ? p.args.name : undefined;
      ctx.problem(p, { location: name !== undefined ? { tool: name } : { pointer: `/tools${p.pointer}` }, transcript });
    }
  },
});
