import { defineLiveCheck } from '../src/check.js';
import { callArguments, isReadOnly } from '../src/pd/calls.js';
import { fetchDescriptions } from '../src/pd/fetch.js';
import { isPlainObject } from '../src/pd/payload.js';
import { compileSchema, describeErrors } from '../src/schema.js';
import { clip } from '../src/text.js';

const messages = {
  'no-output-schema': 'No tool declares an outputSchema in tools/list.',
  'output-schema-invalid': { message: "The outputSchema of '{tool}' is not a valid JSON Schema: {problem}.", hint: 'Fix the outputSchema.' },
  'not-called-safe-calls': "'{tool}' was not called (--safe-calls, and it is not marked read-only).",
  'no-successful-result': "'{tool}' returned no successful result with its example arguments, so its output could not be checked.",
  'no-structured-content': { message: "'{tool}' declares an outputSchema but its result has no structuredContent object.", hint: 'Return "structuredContent" matching the outputSchema.' },
  'structured-content-invalid': { message: "The structuredContent of '{tool}' does not conform to its outputSchema: {problems}.", hint: 'Make the result match the outputSchema, or correct the schema.' },
  'no-text-content': {
    message: "'{tool}' returns structuredContent without the serialized JSON in a text content block (SHOULD, for older clients).",
    hint: 'Add { "type": "text", "text": JSON.stringify(structuredContent) } to content.',
  },
} as const;

export default defineLiveCheck({
  id: 'mcp-output-schema',
  title: 'A tool with an outputSchema returns structuredContent that conforms to it',
  spec: { doc: 'mcp-tools', section: 'Output Schema', level: 'MUST', requirements: ['MCP-output-a', 'MCP-output-b', 'MCP-result-a'] },
  needs: 'session',
  opens: 1,
  messages,
  async run(ctx) {
    const { discovery } = ctx;
    const withSchema = discovery.tools.filter((t) => typeof t.name === 'string' && t.outputSchema !== undefined);
    if (!withSchema.length) ctx.skip('no-output-schema');
    const session = await ctx.session();
    for (const tool of withSchema) {
      const name = tool.name as string;
      const location = { tool: name };
      const compiled = compileSchema(tool.outputSchema);
      if (compiled.problem) {
        ctx.fail('output-schema-invalid', { tool: name, problem: clip(compiled.problem, 200) }, { location, transcript: discovery.toolsExchanges });
        continue;
      }
      if (ctx.options.safeCalls && !isReadOnly(discovery, name)) {
        ctx.info('not-called-safe-calls', { tool: name }, { location });
        continue;
      }
      const base = discovery.descriptionsResource?.uri;
      const fetched = base ? [(await fetchDescriptions(session, base, [name])).exchange] : [];
      const ex = await session.callTool(name, callArguments(discovery, name));
      const result = ex.response?.result;
      if (!isPlainObject(result) || result.isError === true) {
        ctx.info('no-successful-result', { tool: name }, { location });
        continue;
      }
      const transcript = [...fetched, ex];
      if (!isPlainObject(result.structuredContent)) {
        ctx.fail('no-structured-content', { tool: name }, { location, transcript });
        continue;
      }
      if (compiled.validate && !compiled.validate(result.structuredContent)) {
        ctx.fail('structured-content-invalid', { tool: name, problems: describeErrors(compiled.validate.errors).slice(0, 3).join('; ') }, { location, transcript });
      }
      const content = Array.isArray(result.content) ? result.content : [];
      if (!content.some((c) => isPlainObject(c) && c.type === 'text')) {
        ctx.warn('no-text-content', { tool: name }, { location, transcript });
      }
    }
  },
});
