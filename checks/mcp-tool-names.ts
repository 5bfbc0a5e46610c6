import { defineCheck } from '../src/check.js';
import type { LiveContext } from '../src/context.js';
import { clip } from '../src/text.js';
import { toolNameProblem } from '../src/tool-names.js';

export default defineCheck<LiveContext>({
  id: 'mcp-tool-names',
  title: 'Tool names are 1–128 characters of A-Z a-z 0-9 _ - . and unique (case-sensitive)',
  spec: { doc: 'mcp-tools', section: 'Tool Names', level: 'SHOULD', requirements: ['MCP-name-a', 'MCP-name-b', 'MCP-name-c', 'MCP-name-d', 'MCP-name-e'] },
  needs: 'session',
  async run(ctx) {
    const transcript = ctx.discovery.toolsExchanges;
    const seen = new Map<string, number>();
    const lower = new Map<string, string>();
    ctx.discovery.tools.forEach((tool, i) => {
      const name = tool.name;
      if (typeof name !== 'string') {
        ctx.fail(`tools/list entry ${i} has no string name.`, { transcript, hint: 'Give every tool a name.' });
        return;
      }
      const problem = toolNameProblem(name);
      if (problem) ctx.fail(`The tool name '${clip(name, 80)}' ${problem}.`, { location: { tool: name }, transcript, hint: 'Rename the tool, e.g. to snake_case.' });
      if (seen.has(name)) {
        ctx.fail(`The tool '${clip(name, 80)}' is listed twice (entries ${seen.get(name)} and ${i}); names must identify one tool.`, {
          location: { tool: name }, transcript, hint: 'List each tool once.',
        });
      } else {
        seen.set(name, i);
        const other = lower.get(name.toLowerCase());
        if (other !== undefined) {
          ctx.fail(`The tools '${clip(other, 60)}' and '${clip(name, 60)}' differ only in case; clients that compare names case-insensitively will confuse them.`, {
            location: { tool: name }, transcript, hint: 'Rename one of them.',
          });
        } else lower.set(name.toLowerCase(), name);
      }
    });
  },
});
