import { defineCheck } from '../src/check.js';
import type { LiveContext } from '../src/context.js';
import type { ToolCard } from '../src/generated/tool-card.js';
import { describeSchemaErrors } from '../src/lint/schema-messages.js';
import { isPlainObject } from '../src/pd/payload.js';
import { shippedValidator } from '../src/shipped-schemas.js';
import { HttpTarget } from '../src/target/target.js';
import type { Exchange } from '../src/target/types.js';
import { clip, listing, asText } from '../src/text.js';
import { cardLevel, firstDifference } from '../src/toolcards.js';

export default defineCheck<LiveContext>({
  id: 'toolcard-well-known',
  title: 'Each tool has a valid Tool Card at /.well-known/mcp-tools/<tool>.json that matches the live tool',
  spec: {
    doc: 'tool-cards', section: 'well-known', level: 'MUST',
    requirements: ['TC-well-known', 'TC-tool.name', 'TC-schema.input_schema_inline', 'TC-level.L1', 'TC-level.L2', 'TC-level.L3', 'TC-safety.destructive-approval'],
  },
  needs: 'http',
  async run(ctx) {
    const target = ctx.target;
    const required = ctx.options.require.includes('toolcards');
    if (!(target instanceof HttpTarget)) {
      if (required) ctx.fail('--require toolcards needs an HTTP target: Tool Cards are served at /.well-known/mcp-tools/ of a web origin.', { hint: 'Use --url, or lint the card files with mcp-pd-check lint.' });
      return ctx.skip('Tool Cards are served over HTTP; this is a stdio target (lint card files with mcp-pd-check lint).');
    }
    const validate = shippedValidator('tool-card');
    const missing: string[] = [];
    let found = 0;
    for (const name of ctx.discovery.toolNames) {
      const got = await target.get(`/.well-known/mcp-tools/${encodeURIComponent(name)}.json`);
      const ex: Exchange = {
        session: 'http', method: `GET ${got.url}`, request: { url: got.url }, durationMs: 0,
        ...(got.status !== undefined ? { response: { status: got.status, contentType: got.contentType ?? null, body: clip(got.body ?? '', 4000) } } : { noResponse: 'closed' as const, note: got.problem }),
      };
      const location = { tool: name };
      if (got.status === 404) {
        missing.push(name);
        continue;
      }
      if (got.problem || got.status !== 200) {
        ctx.fail(`Fetching the Tool Card of '${name}' failed: ${got.problem ?? `HTTP ${got.status}`}.`, { location, transcript: [ex], hint: 'Serve the card with status 200 as application/json.' });
        continue;
      }
      found++;
      let card: unknown;
      try {
        card = JSON.parse(got.body!);
      } catch {
        ctx.fail(`The Tool Card of '${name}' is not JSON.`, { location, transcript: [ex], hint: 'Serve the card file as JSON.' });
        continue;
      }
      const valid = validate(card);
      for (const p of valid ? [] : describeSchemaErrors(validate.errors, card)) {
        if (p.unknownField) ctx.warn(`Tool Card of '${name}': ${p.message} (not in Tool Cards v0.1; ignored).`, { location, hint: 'Remove the field.' });
        else ctx.fail(`Tool Card of '${name}': ${p.message}.`, { location, transcript: [ex], hint: 'See schemas/tool-card.schema.json.' });
      }
      if (!isPlainObject(card)) continue;
      const c = card as unknown as ToolCard;
      const { level, why } = cardLevel(c, valid || (validate.errors ?? []).every((e) => e.keyword === 'additionalProperties'), new Date());
      ctx.info(`Tool Card of '${name}': level ${why}.`, { location, data: { tool: name, level } });
      if (c.tool?.name !== name) {
        ctx.fail(`The card at /.well-known/mcp-tools/${name}.json describes '${clip(asText(c.tool?.name), 60)}'.`, { location, transcript: [ex], hint: 'tool.name must equal the tools/list name.' });
      }
      if (c.safety?.side_effect_class === 'destructive' && c.safety.human_approval_required !== true) {
        ctx.fail(`The card of '${name}' is destructive without human_approval_required: true.`, { location, transcript: [ex], hint: 'Set "human_approval_required": true.' });
      }
      const full = ctx.discovery.fullDescriptions.get(name)?.inputSchema ?? ctx.discovery.tools.find((t) => t.name === name)?.inputSchema;
      const inline = c.schema?.input_schema_inline;
      if (isPlainObject(inline) && isPlainObject(full)) {
        const diff = firstDifference(inline, full);
        if (diff !== undefined) {
          ctx.fail(`The card of '${name}' has an input_schema_inline that disagrees with the live ${ctx.discovery.fullDescriptions.has(name) ? 'full description' : 'tools/list'} inputSchema at '${diff || '/'}'.`, {
            location, transcript: [ex], hint: 'Generate the card from the same schema the server uses.',
          });
        }
      }
    }
    if (found === 0) {
      if (required) ctx.fail('No tool has a Tool Card at /.well-known/mcp-tools/<tool>.json, and --require toolcards is set.', { hint: 'Serve one card per tool.' });
      else ctx.skip('The server serves no Tool Cards at /.well-known/mcp-tools/ (an optional extension; use --require toolcards to insist).');
    } else if (missing.length) {
      ctx.warn(`${listing(missing)} ${missing.length === 1 ? 'has' : 'have'} no Tool Card although other tools do.`, { hint: 'Serve a card for every tool.' });
    }
  },
});
