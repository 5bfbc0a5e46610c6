import { defineLiveCheck } from '../src/run/check.js';
import { DASHDASH_PRESENCE_MESSAGES, requireDashdashOrSkip } from '../src/run/dashdash-presence.js';
import { isPlainObject } from '../src/protocol/payload.js';
import { DASHDASH_MESSAGES, dashdashToolProblems } from '../src/rules/dashdash.js';
import { SCHEMA_MESSAGES } from '../src/rules/schema-problems.js';
import { asText } from '../src/util/text.js';

const messages = {
  ...DASHDASH_PRESENCE_MESSAGES,
  ...SCHEMA_MESSAGES,
  ...DASHDASH_MESSAGES,
  'examples-in-list': {
    message:
      "Tool '{tool}': dashdash examples/errors sit in tools/list; with progressive disclosure they belong in the full description (§3.1 keeps stage 1 minimal).",
    hint: 'Move dashdash.examples and dashdash.errors into tool_descriptions/<tool>.json.',
  },
  'tools-without-dashdash': {
    message: 'Tools without a dashdash object (§3.2.1 SHOULD): {tools}.',
    hint: 'Add "dashdash": { category, operationType, … } to every tool.',
  },
} as const;

/** The properties of a schema, when it has any. */
function parametersOf(schema: unknown): string[] | undefined {
  return isPlainObject(schema) && isPlainObject(schema.properties) ? Object.keys(schema.properties) : undefined;
}

export default defineLiveCheck({
  id: 'dashdash-tool-metadata',
  title: "Each tool's dashdash object is valid; cliEquivalent placeholders and reverseMethod name real things",
  spec: {
    doc: 'dashdash',
    section: '3.2',
    level: 'MUST',
    requirements: [
      'DD-3.2.1-a',
      'DD-3.2.2-a',
      'DD-3.2.2-b',
      'DD-3.2.2-c',
      'DD-3.2.2-d',
      'DD-3.2.2-e',
      'DD-3.2.2-f',
      'DD-3.2.2-g',
      'DD-3.2.2-h',
    ],
  },
  needs: 'session',
  reads: ['descriptions'],
  messages,
  async run(ctx) {
    await requireDashdashOrSkip(ctx);
    const { tools, toolNames, toolsExchanges: transcript } = ctx.discovery;
    const fullDescriptions = ctx.facts.descriptions.full;
    const without: string[] = [];
    for (const tool of tools) {
      const name = asText(tool.name);
      // Its placeholders name the full description's parameters: unknown while that got no answer.
      const noAnswer = ctx.facts.descriptions.unanswered.get(name);
      if (noAnswer) {
        ctx.inconclusiveOnce(`reading the full description of '${name}'`, noAnswer, name);
        continue;
      }
      const full = fullDescriptions.get(name);
      // With progressive disclosure the short fields sit in tools/list and examples/errors in
      // the full description (DESIGN): the two are checked together.
      const listed = isPlainObject(tool.dashdash) ? tool.dashdash : undefined;
      const detailed = isPlainObject(full?.dashdash) ? full.dashdash : undefined;
      if (!listed && !detailed) {
        without.push(name);
        continue;
      }
      const parameters = parametersOf(full?.inputSchema) ?? parametersOf(tool.inputSchema) ?? [];
      ctx.problems(name, dashdashToolProblems({ ...detailed, ...listed }, { toolNames, parameters }), {
        base: '/dashdash',
        transcript,
      });
      if (
        listed &&
        (Array.isArray(listed.examples) || Array.isArray(listed.errors)) &&
        ctx.discovery.descriptionsResource
      ) {
        ctx.warn('examples-in-list', { tool: name }, { location: { tool: name }, transcript });
      }
    }
    if (without.length) ctx.warn('tools-without-dashdash', { tools: without });
  },
});
