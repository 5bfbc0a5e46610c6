// Every tool says what it does to data: readOnlyHint and destructiveHint given, never left to MCP's
// defaults (clients decide approval on them; a default reads as "may destroy").
import { defineLiveCheck } from 'mcp-pd-check/plugin';

const HINTS = ['readOnlyHint', 'destructiveHint'];

export default defineLiveCheck({
  id: 'annotations-explicit',
  title: 'Every tool gives readOnlyHint and destructiveHint explicitly',
  spec: { url: 'https://github.com/acme/mcp-rules/blob/main/docs/annotations-explicit.md', level: 'MUST' },
  needs: 'session',
  messages: {
    'hint-missing': {
      message: "Tool '{tool}' does not give {hint}: MCP's default applies, and clients treat it as unknown.",
      hint: 'Give both hints in the tool\'s annotations, e.g. "annotations": { "readOnlyHint": true, "destructiveHint": false }.',
    },
  },
  async run(ctx) {
    const { tools, toolsExchanges: transcript } = ctx.discovery;
    for (const tool of tools) {
      const name = typeof tool.name === 'string' ? tool.name : '';
      const annotations = typeof tool.annotations === 'object' && tool.annotations !== null ? tool.annotations : {};
      for (const hint of HINTS) {
        if (typeof annotations[hint] !== 'boolean')
          ctx.fail('hint-missing', { tool: name, hint }, { location: { tool: name }, transcript });
      }
    }
  },
});
