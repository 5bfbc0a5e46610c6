import { defineCheck } from '../src/check.js';
import type { LiveContext } from '../src/context.js';
import { describeSchemaErrors } from '../src/lint/schema-messages.js';
import { requireDashdashOrSkip } from '../src/pd/dashdash.js';
import { isPlainObject } from '../src/pd/payload.js';
import { shippedValidator } from '../src/shipped-schemas.js';
import { clip, listing, asText } from '../src/text.js';

export default defineCheck<LiveContext>({
  id: 'dashdash-tool-metadata',
  title: "Each tool's dashdash object is valid; cliEquivalent placeholders and reverseMethod name real things",
  spec: {
    doc: 'dashdash', section: '3.2', level: 'MUST',
    requirements: ['DD-3.2.1-a', 'DD-3.2.2-a', 'DD-3.2.2-b', 'DD-3.2.2-c', 'DD-3.2.2-d', 'DD-3.2.2-e', 'DD-3.2.2-f', 'DD-3.2.2-g', 'DD-3.2.2-h'],
  },
  needs: 'session',
  async run(ctx) {
    requireDashdashOrSkip(ctx);
    const { tools, toolNames, fullDescriptions, toolsExchanges: transcript } = ctx.discovery;
    const validate = shippedValidator('dashdash-tool');
    const without: string[] = [];
    for (const tool of tools) {
      const name = asText(tool.name);
      const full = fullDescriptions.get(name);
      // With progressive disclosure the short fields sit in tools/list and examples/errors in
      // the full description (DESIGN): the two are checked together.
      const listed = isPlainObject(tool.dashdash) ? tool.dashdash : undefined;
      const detailed = isPlainObject(full?.dashdash) ? full.dashdash : undefined;
      if (!listed && !detailed) {
        without.push(name);
        continue;
      }
      const dd = { ...detailed, ...listed };
      const location = { tool: name };
      if (!validate(dd)) {
        for (const p of describeSchemaErrors(validate.errors, dd)) {
          ctx.fail(`Tool '${name}': dashdash ${p.message}.`, { location, transcript, hint: 'See schemas/dashdash-tool.schema.json (dashdash v0.2.0 §3.2.2).' });
        }
      }
      if (listed && (Array.isArray(listed.examples) || Array.isArray(listed.errors)) && ctx.discovery.descriptionsResource) {
        ctx.warn(`Tool '${name}': dashdash examples/errors sit in tools/list; with progressive disclosure they belong in the full description (§3.1 keeps stage 1 minimal).`, {
          location, transcript, hint: 'Move dashdash.examples and dashdash.errors into tool_descriptions/<tool>.json.',
        });
      }
      if (typeof dd.reverseMethod === 'string' && !toolNames.includes(dd.reverseMethod)) {
        ctx.fail(`Tool '${name}': reverseMethod '${clip(dd.reverseMethod, 60)}' is not a tool of this server.`, { location, transcript, hint: 'Name the tool that undoes this one, exactly as tools/list shows it.' });
      }
      if (typeof dd.cliEquivalent === 'string') {
        const params = Object.keys(isPlainObject(full?.inputSchema) && isPlainObject(full.inputSchema.properties) ? full.inputSchema.properties : isPlainObject(tool.inputSchema) && isPlainObject(tool.inputSchema.properties) ? tool.inputSchema.properties : {});
        const unknown = [...dd.cliEquivalent.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!).filter((p) => !params.includes(p));
        if (unknown.length) {
          ctx.fail(`Tool '${name}': cliEquivalent uses ${listing(unknown)}, which ${unknown.length === 1 ? 'is not a parameter' : 'are not parameters'} of the tool (parameters: ${listing(params) || 'none'}).`, {
            location, transcript, hint: 'Use {placeholders} named after the inputSchema properties.',
          });
        }
      }
    }
    if (without.length) {
      ctx.warn(`${listing(without)} ${without.length === 1 ? 'has' : 'have'} no dashdash object (§3.2.1 SHOULD).`, { hint: 'Add "dashdash": { category, operationType, … } to every tool.' });
    }
  },
});
