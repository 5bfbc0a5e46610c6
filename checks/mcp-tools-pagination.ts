import { defineCheck } from '../src/check.js';
import type { LiveContext } from '../src/context.js';
import { plural } from '../src/text.js';

export default defineCheck<LiveContext>({
  id: 'mcp-tools-pagination',
  title: 'tools/list pagination can be followed to the end (nextCursor, no loops, no errors)',
  spec: { doc: 'mcp-tools', section: 'Listing Tools', level: 'MUST', requirements: ['MCP-list-a'] },
  needs: 'session',
  async run(ctx) {
    const { toolsExchanges, toolsProblem, tools } = ctx.discovery;
    if (toolsProblem) {
      ctx.fail(`Following tools/list to the end failed: ${toolsProblem}.`, {
        transcript: toolsExchanges.slice(-3),
        hint: 'Return nextCursor only while more tools follow, each cursor new, and accept every cursor you hand out.',
      });
      return;
    }
    ctx.info(`tools/list: ${plural(tools.length, 'tool')} in ${plural(toolsExchanges.length, 'page')}.`);
  },
});
