import { defineLiveCheck } from '../src/run/check.js';
import { INPUT_SCHEMA_MESSAGES, inputSchemaProblems } from '../src/rules/input-schema.js';

const messages = {
  ...INPUT_SCHEMA_MESSAGES,
  checked: '{count|inputSchema} checked ({source}).',
} as const;

export default defineLiveCheck({
  id: 'mcp-input-schema',
  title: 'Each inputSchema reads as meant under JSON Schema 2020-12, and a tool without parameters accepts only {}',
  spec: { doc: 'mcp-tools', section: 'Tool', level: 'SHOULD', requirements: ['MCP-input-b', 'MCP-input-c'] },
  needs: 'session',
  reads: ['descriptions'],
  messages,
  async run(ctx) {
    const { discovery } = ctx;
    // Under progressive disclosure tools/list carries minimal schemas on purpose (§3.1): the
    // schema a client validates against is the full description's, fetched once in the probe.
    const full = ctx.facts.descriptions.full;
    let fromFull = 0;
    let checked = 0;
    const unanswered = ctx.facts.descriptions.unanswered;
    for (const tool of discovery.tools) {
      if (typeof tool.name !== 'string') continue;
      // A description that got no answer is unknown: its tools/list entry is not what a client validates against.
      const noAnswer = unanswered.get(tool.name);
      if (noAnswer) {
        ctx.inconclusiveOnce(`reading the full description of '${tool.name}'`, noAnswer, tool.name);
        continue;
      }
      const described = full.get(tool.name)?.inputSchema;
      const schema = described ?? tool.inputSchema;
      if (described !== undefined) fromFull++;
      checked++;
      // Without its full description, a minimal tools/list schema is all there is: only its draft-07 readings count.
      const problems = inputSchemaProblems(schema, { draft07Only: described === undefined && full.size > 0 });
      const read = described === undefined ? undefined : ctx.facts.descriptions.reads.get(tool.name);
      ctx.problems(tool.name, problems, { base: '/inputSchema', transcript: read ? [read] : discovery.toolsExchanges });
    }
    const [first] = unanswered.values();
    if (!checked && first) ctx.unprovenIfSilent('the full descriptions', [first]);
    ctx.info('checked', {
      count: checked,
      source:
        fromFull === checked
          ? 'from the full descriptions'
          : fromFull
            ? `${fromFull} from the full descriptions, the rest from tools/list`
            : 'from tools/list',
    });
  },
});
