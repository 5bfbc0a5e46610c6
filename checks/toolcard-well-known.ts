import { defineLiveCheck } from '../src/run/check.js';
import { isPlainObject } from '../src/protocol/payload.js';
import { SCHEMA_MESSAGES } from '../src/rules/schema-problems.js';
import { cardIdentityProblems, TOOL_CARD_MESSAGES, toolCardRules, toolCardShape } from '../src/rules/tool-card.js';
import type { Exchange } from '../src/transport/types.js';
import { clip } from '../src/util/text.js';

const messages = {
  ...SCHEMA_MESSAGES,
  ...TOOL_CARD_MESSAGES,
  'card-fetch-failed': {
    message: "Fetching the Tool Card of '{tool}' failed: {problem}.",
    hint: 'Serve the card with status 200 as application/json.',
  },
  'card-not-json': { message: "The Tool Card of '{tool}' is not JSON.", hint: 'Serve the card file as JSON.' },
  'no-cards':
    'The server serves no Tool Cards at /.well-known/mcp-tools/ (an optional extension; use --require toolcards to insist).',
  'no-cards-required': {
    message: 'No tool has a Tool Card at /.well-known/mcp-tools/<tool>.json, and --require toolcards is set.',
    hint: 'Serve one card per tool.',
  },
  'cards-missing': {
    message: 'Tools without a Tool Card although other tools have one: {tools}.',
    hint: 'Serve a card for every tool.',
  },
} as const;

export default defineLiveCheck({
  id: 'toolcard-well-known',
  title: 'Each tool has a valid Tool Card at /.well-known/mcp-tools/<tool>.json that matches the live tool',
  spec: {
    doc: 'tool-cards',
    section: 'well-known',
    level: 'MUST',
    requirements: [
      'TC-well-known',
      'TC-tool.name',
      'TC-schema.input_schema_inline',
      'TC-level.L1',
      'TC-level.L2',
      'TC-level.L3',
      'TC-safety.destructive-approval',
    ],
  },
  needs: 'http',
  reads: ['descriptions'],
  messages,
  async run(ctx) {
    const missing: string[] = [];
    let found = 0;
    const fullDescriptions = ctx.facts.descriptions.full;
    for (const name of ctx.discovery.toolNames) {
      const path = `/.well-known/mcp-tools/${encodeURIComponent(name)}.json`;
      const got = await ctx.httpGet(path);
      const ex: Exchange = {
        session: 'http',
        method: `GET ${got.url}`,
        request: { url: got.url },
        durationMs: 0,
        ...(got.status !== undefined
          ? { response: { status: got.status, contentType: got.contentType ?? null, body: clip(got.body ?? '', 4000) } }
          : { noResponse: 'closed' as const, note: got.problem }),
      };
      const location = { tool: name };
      if (got.status === 404) {
        missing.push(name);
        continue;
      }
      if (got.problem || got.status !== 200) {
        ctx.fail(
          'card-fetch-failed',
          { tool: name, problem: got.problem ?? `HTTP ${got.status}` },
          { location, transcript: [ex] },
        );
        continue;
      }
      found++;
      let card: unknown;
      try {
        card = JSON.parse(got.body!);
      } catch {
        ctx.fail('card-not-json', { tool: name }, { location, transcript: [ex] });
        continue;
      }
      if (!isPlainObject(card)) continue;
      const live = fullDescriptions.get(name)?.inputSchema ?? ctx.tools.entry(name)?.inputSchema;
      const against = `the live ${fullDescriptions.has(name) ? 'full description' : 'tools/list'} inputSchema`;
      // The same rules as the lint of card files, with the same codes.
      ctx.problems(
        name,
        [
          ...toolCardShape(card),
          ...toolCardRules(card, new Date()),
          ...cardIdentityProblems(card, {
            name: { expected: name, why: `served at ${path}` },
            inputSchema: live,
            against,
          }),
        ],
        { transcript: [ex] },
      );
    }
    if (found === 0) {
      if (ctx.options.require.includes('toolcards')) ctx.fail('no-cards-required');
      else ctx.skip('no-cards');
    } else if (missing.length) {
      ctx.warn('cards-missing', { tools: missing });
    }
  },
});
