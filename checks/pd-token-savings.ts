import { defineCheck } from '../src/check.js';
import type { LiveContext } from '../src/context.js';
import { TOKEN_ENCODING, tokenCounter } from '../src/tokens.js';

/** Below this saving, progressive disclosure is not worth its extra round trip (DESIGN: warn). */
const WARN_BELOW = 0.5;

export default defineCheck<LiveContext>({
  id: 'pd-token-savings',
  title: 'tools/list costs far fewer tokens than the full descriptions (the spec claims 80–90 % savings)',
  spec: { doc: 'progressive-disclosure', section: '1.2', level: 'SHOULD', requirements: [] },
  needs: 'session',
  async run(ctx) {
    const { tools, fullDescriptions } = ctx.discovery;
    if (!ctx.discovery.descriptionsResource) ctx.skip('No tool_descriptions resource, so there are no full descriptions to compare with (see pd-resource-listed).');
    const both = tools.filter((t) => typeof t.name === 'string' && fullDescriptions.has(t.name));
    if (!both.length) ctx.skip('No full description could be fetched, so there is nothing to compare (see pd-full-descriptions).');
    const count = await tokenCounter();
    let minimal = 0;
    let full = 0;
    for (const tool of both) {
      const name = tool.name as string;
      const m = count(JSON.stringify(tool));
      const f = count(JSON.stringify(fullDescriptions.get(name)));
      minimal += m;
      full += f;
      ctx.info(`Tool '${name}': ${m} tokens in tools/list, ${f} in its full description.`, {
        location: { tool: name }, data: { tool: name, minimalTokens: m, fullTokens: f, encoding: TOKEN_ENCODING },
      });
    }
    const saving = full > 0 ? 1 - minimal / full : 0;
    const percent = `${Math.round(saving * 100)} %`;
    ctx.info(`tools/list: ${minimal} tokens for ${both.length} tools; their full descriptions: ${full} tokens; saving ${percent} (${TOKEN_ENCODING}).`, {
      data: { minimalTokens: minimal, fullTokens: full, saving: Math.round(saving * 1000) / 1000, tools: both.length, encoding: TOKEN_ENCODING },
    });
    if (saving < WARN_BELOW) {
      ctx.fail(`Progressive disclosure saves only ${percent} of the tokens here (tools/list ${minimal} vs full ${full}); the spec promises 80–90 %.`, {
        hint: 'Shorten tools/list descriptions to one sentence and move details, examples and schemas into the full descriptions.',
        transcript: ctx.discovery.toolsExchanges,
      });
    }
  },
});
