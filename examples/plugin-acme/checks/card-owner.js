// Every Tool Card names the Acme team that owns the tool (an "x-owner" field): who to call when it breaks.
import { defineLintCheck } from 'mcp-pd-check/plugin';

export default defineLintCheck({
  id: 'card-owner',
  title: 'Every Tool Card names its owner (x-owner)',
  spec: { url: 'https://github.com/acme/mcp-rules/blob/main/docs/card-owner.md', level: 'MUST' },
  needs: 'folder',
  messages: {
    'no-owner': {
      message: "Tool Card '{file}' names no owner.",
      hint: 'Add "x-owner": "<team>" at the top of the card: the team that answers for the tool.',
    },
  },
  async run(ctx) {
    for (const file of ctx.files) {
      if (file.kind !== 'tool-card' || !file.source?.parsed) continue;
      const card = file.source.value;
      const owner = typeof card === 'object' && card !== null ? card['x-owner'] : undefined;
      if (typeof owner !== 'string' || !owner.trim())
        ctx.fail('no-owner', { file: file.display }, { location: ctx.at(file, '') });
    }
  },
});
