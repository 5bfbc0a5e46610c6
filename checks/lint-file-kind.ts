import { defineCheck } from '../src/check.js';
import type { LintContext } from '../src/lint/context.js';

export default defineCheck<LintContext>({
  id: 'lint-file-kind',
  title: 'Every JSON file is recognised as a tool description, Tool Card, dashdash metadata or tools/list result',
  spec: { doc: 'mcp-pd-check', section: 'lint', level: 'SHOULD', requirements: [] },
  needs: 'folder',
  async run(ctx) {
    for (const file of ctx.files) {
      if (!file.source?.parsed || file.kind !== 'unknown') continue;
      ctx.fail(`Cannot tell what ${file.display} is, so it was only checked for JSON syntax.`, {
        location: ctx.at(file),
        hint: 'Recognised: a tool description (in tool_descriptions/, or with name and inputSchema), a Tool Card (tool_card_version), '
          + 'dashdash metadata (specVersion and identity, or an initialize result with dashdash), a saved tools/list result ({ "tools": [...] }).',
      });
    }
  },
});
