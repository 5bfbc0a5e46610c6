import { defineLintCheck } from '../src/lint/check.js';

const messages = {
  'unknown-kind': {
    message: 'Cannot tell what {file} is, so it was only checked for JSON syntax.',
    hint:
      'Recognised: a tool description (in tool_descriptions/, or with name and inputSchema), a Tool Card (tool_card_version), ' +
      'dashdash metadata (specVersion and identity), a saved initialize result (protocolVersion and serverInfo), a saved tools/list result ({ "tools": [...] }), ' +
      "the checker's mcp-pd-check.config.json, or a tool lock file (lockVersion, *.lock.json).",
  },
} as const;

export default defineLintCheck({
  id: 'lint-file-kind',
  title:
    'Every JSON file is recognised as a tool description, Tool Card, dashdash metadata, tools/list result, checker config or lock file',
  spec: { doc: 'mcp-pd-check', section: 'lint', level: 'SHOULD', requirements: [] },
  needs: 'folder',
  messages,
  async run(ctx) {
    for (const file of ctx.parsedOrSkip()) {
      if (file.kind === 'unknown') ctx.fail('unknown-kind', { file: file.display }, { location: ctx.at(file) });
    }
  },
});
