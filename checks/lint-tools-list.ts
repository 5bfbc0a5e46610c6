import { defineCheck } from '../src/check.js';
import type { LintContext } from '../src/lint/context.js';
import { isPlainObject } from '../src/pd/payload.js';
import { compileSchema } from '../src/schema.js';
import { clip } from '../src/text.js';
import { TOKEN_ENCODING, tokenCounter } from '../src/tokens.js';
import { toolNameProblem } from '../src/tool-names.js';

export default defineCheck<LintContext>({
  id: 'lint-tools-list',
  title: 'A saved tools/list follows the MCP tool rules; its token cost per tool is reported',
  spec: { doc: 'mcp-tools', section: 'Tool', level: 'MUST', requirements: ['MCP-name-a', 'MCP-name-c', 'MCP-name-d', 'MCP-name-e', 'MCP-input-a', 'MCP-output-a'] },
  needs: 'folder',
  async run(ctx) {
    const files = ctx.ofKind('tools-list');
    if (!files.length) return;
    const count = await tokenCounter();
    for (const file of files) {
      const tools = (file.source!.value as { tools: unknown[] }).tools;
      const seen = new Map<string, number>();
      let total = 0;
      tools.forEach((tool, i) => {
        const at = (pointer = '') => ctx.at(file, `/tools/${i}${pointer}`);
        if (!isPlainObject(tool) || typeof tool.name !== 'string') {
          ctx.fail(`tools[${i}] has no string "name".`, { location: at(), hint: 'Every tool needs a name.' });
          return;
        }
        const name = tool.name;
        const problem = toolNameProblem(name);
        if (problem) ctx.warn(`The tool name '${clip(name, 80)}' ${problem} (MCP tool-name rules).`, { location: at('/name'), hint: 'Use names of letters, digits, _, - and .' });
        if (seen.has(name)) {
          ctx.warn(`The tool name '${clip(name, 80)}' appears twice (tools[${seen.get(name)}] and tools[${i}]); names should be unique.`, { location: at('/name'), hint: 'Rename one of them.' });
        } else seen.set(name, i);
        for (const key of ['inputSchema', 'outputSchema'] as const) {
          if (!(key in tool)) {
            if (key === 'inputSchema') ctx.fail(`Tool '${clip(name, 80)}' has no inputSchema; MCP requires one (at least { "type": "object" }).`, { location: at(), hint: 'Add "inputSchema": { "type": "object" }.' });
            continue;
          }
          const c = compileSchema(tool[key]);
          if (c.problem) {
            ctx.fail(`Tool '${clip(name, 80)}': ${key} is not a valid JSON Schema: ${clip(c.problem, 200)}.`, { location: at(`/${key}`), hint: `Make ${key} a JSON Schema object${key === 'inputSchema' ? ' with "type": "object"' : ''}.` });
          } else if (key === 'inputSchema' && (tool[key] as Record<string, unknown>).type !== 'object') {
            ctx.fail(`Tool '${clip(name, 80)}': inputSchema must have "type": "object".`, { location: at('/inputSchema'), hint: 'Tool arguments are an object.' });
          }
        }
        const tokens = count(JSON.stringify(tool));
        total += tokens;
        ctx.info(`Tool '${clip(name, 80)}': ${tokens} tokens in tools/list (${TOKEN_ENCODING}).`, { location: at(), data: { tool: name, tokens, encoding: TOKEN_ENCODING } });
      });
      ctx.info(`${file.display}: ${tools.length} tools, ${total} tokens in all (${TOKEN_ENCODING}).`, {
        location: ctx.at(file), data: { tools: tools.length, tokens: total, encoding: TOKEN_ENCODING },
      });
    }
  },
});
