import { basename, dirname } from 'node:path';
import { defineLintCheck } from '../src/lint/check.js';
import { stem } from '../src/lint/files.js';
import { cardIdentityProblems, TOOL_CARD_MESSAGES } from '../src/rules/tool-card.js';
import { asText } from '../src/util/text.js';

const messages = {
  'card-name-mismatch': TOOL_CARD_MESSAGES['card-name-mismatch'],
  'input-schema-drift': TOOL_CARD_MESSAGES['input-schema-drift'],
} as const;

export default defineLintCheck({
  id: 'lint-toolcard-consistency',
  title: 'A Tool Card is named after its file and its input schema agrees with the tool description of the same tool',
  spec: {
    doc: 'tool-cards',
    section: 'identity',
    level: 'MUST',
    requirements: ['TC-tool.name', 'TC-schema.input_schema_inline'],
  },
  needs: 'folder',
  messages,
  async run(ctx) {
    const descriptions = new Map(
      ctx.ofKind('tool-description').map((f) => [asText((f.source!.value as { name?: unknown }).name), f]),
    );
    for (const file of ctx.ofKindOrSkip('tool-card', 'Tool Card (a file with tool_card_version)')) {
      const card = file.source!.value as { tool?: { name?: unknown } };
      const name = card.tool?.name;
      if (typeof name !== 'string') continue; // lint-schema reports it
      const description = descriptions.get(name);
      // The name rule holds where cards are served: /.well-known/mcp-tools/<tool>.json.
      const inServedFolder = basename(dirname(file.path)) === 'mcp-tools';
      ctx.problems(
        file,
        cardIdentityProblems(card, {
          name: inServedFolder
            ? {
                expected: stem(file),
                why: `its file is ${stem(file)}.json, and cards are served at /.well-known/mcp-tools/<tool>.json`,
              }
            : undefined,
          inputSchema: (description?.source!.value as { inputSchema?: unknown } | undefined)?.inputSchema,
          against: description ? `${description.display}'s inputSchema` : undefined,
        }),
      );
    }
  },
});
