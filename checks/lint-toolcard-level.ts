import { defineLintCheck } from '../src/lint/check.js';
import { TOOL_CARD_MESSAGES, toolCardRules } from '../src/rules/tool-card.js';

const {
  'no-audit': _audit,
  'card-name-mismatch': _name,
  'input-schema-drift': _drift,
  ...messages
} = TOOL_CARD_MESSAGES;

export default defineLintCheck({
  id: 'lint-toolcard-level',
  title: 'Tool Cards: conformance level (L1 schema, L2 safety, L3 trial) and the destructive ⇒ approval rule',
  spec: {
    doc: 'tool-cards',
    section: '6',
    level: 'MUST',
    requirements: ['TC-level.L1', 'TC-level.L2', 'TC-level.L3', 'TC-safety.destructive-approval', 'TC-performance'],
  },
  needs: 'folder',
  messages,
  async run(ctx) {
    // The same rules as the live check of served cards (toolcard-well-known), with the same codes.
    for (const file of ctx.ofKindOrSkip('tool-card', 'Tool Card (a file with tool_card_version)'))
      ctx.problems(file, toolCardRules(file.source!.value, ctx.options.now));
  },
});
