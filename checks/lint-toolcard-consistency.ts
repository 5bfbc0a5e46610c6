import { basename, dirname } from 'node:path';
import { defineCheck } from '../src/check.js';
import type { ToolCard } from '../src/generated/tool-card.js';
import type { LintContext } from '../src/lint/context.js';
import { stem } from '../src/lint/files.js';
import { isPlainObject } from '../src/pd/payload.js';
import { clip, asText } from '../src/text.js';
import { firstDifference } from '../src/toolcards.js';

export default defineCheck<LintContext>({
  id: 'lint-toolcard-consistency',
  title: 'A Tool Card is named after its file and its input schema agrees with the tool description of the same tool',
  spec: { doc: 'tool-cards', section: 'identity', level: 'MUST', requirements: ['TC-tool.name', 'TC-schema.input_schema_inline'] },
  needs: 'folder',
  async run(ctx) {
    const descriptions = new Map(ctx.ofKind('tool-description').map((f) => [asText((f.source!.value as { name?: unknown }).name), f]));
    for (const file of ctx.ofKind('tool-card')) {
      const card = file.source!.value as ToolCard;
      const name = card.tool?.name;
      if (typeof name !== 'string') continue; // lint-schema reports it
      // The name rule holds where cards are served: /.well-known/mcp-tools/<tool>.json.
      if (basename(dirname(file.path)) === 'mcp-tools' && name !== stem(file)) {
        ctx.fail(`The card describes '${clip(name, 80)}' but its file is ${stem(file)}.json; cards are served at /.well-known/mcp-tools/<tool>.json.`, {
          location: ctx.at(file, '/tool/name'), hint: `Rename the file to ${name}.json.`,
        });
      }
      const description = descriptions.get(name);
      const inline = card.schema?.input_schema_inline;
      if (!description || !isPlainObject(inline)) continue;
      const full = (description.source!.value as { inputSchema?: unknown }).inputSchema;
      const diff = firstDifference(inline, full);
      if (diff !== undefined) {
        ctx.fail(`The card's input_schema_inline and ${description.display}'s inputSchema disagree at '${diff || '/'}'.`, {
          location: ctx.at(file, `/schema/input_schema_inline${diff}`), hint: 'Generate both from one source, or copy the tool description\'s inputSchema into the card.',
        });
      }
    }
  },
});
