import { defineLiveCheck } from '../src/run/check.js';

const messages = {
  'pagination-broken': {
    message: 'Following tools/list to the end failed: {problem}.',
    hint: 'Return nextCursor only while more tools follow, each cursor new, and accept every cursor you hand out.',
  },
  pages: 'tools/list: {tools|tool} in {pages|page}.',
} as const;

export default defineLiveCheck({
  id: 'mcp-tools-pagination',
  title: 'tools/list pagination can be followed to the end (nextCursor, no loops, no errors)',
  spec: { doc: 'mcp-tools', section: 'Listing Tools', level: 'MUST', requirements: ['MCP-list-a'] },
  needs: 'session',
  messages,
  async run(ctx) {
    const { toolsExchanges, toolsProblem, tools } = ctx.discovery;
    if (toolsProblem) {
      ctx.fail('pagination-broken', { problem: toolsProblem }, { transcript: toolsExchanges.slice(-3) });
      return;
    }
    // A first page asked again (no answer in time) is one page, not two.
    ctx.info('pages', { tools: tools.length, pages: toolsExchanges.filter((ex) => ex.response).length });
  },
});
