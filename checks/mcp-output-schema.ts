import { defineCheck } from '../src/check.js';
import type { LiveContext } from '../src/context.js';
import { callArguments, isReadOnly } from '../src/pd/calls.js';
import { fetchDescriptions } from '../src/pd/fetch.js';
import { isPlainObject } from '../src/pd/payload.js';
import { compileSchema, describeErrors } from '../src/schema.js';
import { clip } from '../src/text.js';

export default defineCheck<LiveContext>({
  id: 'mcp-output-schema',
  title: 'A tool with an outputSchema returns structuredContent that conforms to it',
  spec: { doc: 'mcp-tools', section: 'Output Schema', level: 'MUST', requirements: ['MCP-output-a', 'MCP-output-b', 'MCP-result-a'] },
  needs: 'session',
  opens: 1,
  async run(ctx) {
    const { discovery } = ctx;
    const withSchema = discovery.tools.filter((t) => typeof t.name === 'string' && t.outputSchema !== undefined);
    if (!withSchema.length) ctx.skip('No tool declares an outputSchema in tools/list.');
    const session = await ctx.session();
    for (const tool of withSchema) {
      const name = tool.name as string;
      const location = { tool: name };
      const compiled = compileSchema(tool.outputSchema);
      if (compiled.problem) {
        ctx.fail(`The outputSchema of '${name}' is not a valid JSON Schema: ${clip(compiled.problem, 200)}.`, { location, transcript: discovery.toolsExchanges, hint: 'Fix the outputSchema.' });
        continue;
      }
      if (ctx.options.safeCalls && !isReadOnly(discovery, name)) {
        ctx.info(`'${name}' was not called (--safe-calls, and it is not marked read-only).`, { location });
        continue;
      }
      const base = discovery.descriptionsResource?.uri;
      const fetched = base ? [(await fetchDescriptions(session, base, [name])).exchange] : [];
      const ex = await session.callTool(name, callArguments(discovery, name));
      const result = ex.response?.result;
      if (!isPlainObject(result) || result.isError === true) {
        ctx.info(`'${name}' returned no successful result with its example arguments, so its output could not be checked.`, { location });
        continue;
      }
      const transcript = [...fetched, ex];
      if (!isPlainObject(result.structuredContent)) {
        ctx.fail(`'${name}' declares an outputSchema but its result has no structuredContent object.`, { location, transcript, hint: 'Return "structuredContent" matching the outputSchema.' });
        continue;
      }
      if (compiled.validate && !compiled.validate(result.structuredContent)) {
        ctx.fail(`The structuredContent of '${name}' does not conform to its outputSchema: ${describeErrors(compiled.validate.errors).slice(0, 3).join('; ')}.`, {
          location, transcript, hint: 'Make the result match the outputSchema, or correct the schema.',
        });
      }
      const content = Array.isArray(result.content) ? result.content : [];
      if (!content.some((c) => isPlainObject(c) && c.type === 'text')) {
        ctx.warn(`'${name}' returns structuredContent without the serialized JSON in a text content block (SHOULD, for older clients).`, {
          location, transcript, hint: 'Add { "type": "text", "text": JSON.stringify(structuredContent) } to content.',
        });
      }
    }
  },
});
