import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defineLiveCheck } from '../src/run/check.js';
import { readLintFile } from '../src/lint/files.js';
import { isPlainObject } from '../src/protocol/payload.js';
import { SCHEMA_MESSAGES } from '../src/rules/schema-problems.js';
import { cardIdentityProblems, TOOL_CARD_MESSAGES, toolCardRules, toolCardShape } from '../src/rules/tool-card.js';

const messages = {
  ...SCHEMA_MESSAGES,
  ...TOOL_CARD_MESSAGES,
  'no-cards-dir':
    'No --cards folder given: Tool Card files are compared with the live tools only with --cards DIR (over HTTP, toolcard-well-known reads the served cards).',
  'card-unreadable': {
    message: "The Tool Card file of '{tool}' cannot be used: {problem}.",
    hint: 'Make {file} a JSON object (a Tool Card).',
  },
  'card-for-unlisted-tool': {
    message: "{file} is the card of '{tool}', which the server does not list in tools/list.",
    hint: 'Remove the card, or rename it after the tool it describes (cards are named <tool>.json).',
  },
  'cards-missing': {
    message: 'Tools without a card in {dir}: {tools}.',
    hint: 'Add a card <tool>.json for every tool (mcp-pd-check init writes stubs).',
  },
  compared: '{count|card} in {dir} compared with the live tools.',
} as const;

export default defineLiveCheck({
  id: 'toolcard-files',
  title:
    'Tool Card files (--cards DIR) match the live tools: one card per listed tool, no card for an unlisted one, no schema drift',
  spec: {
    doc: 'tool-cards',
    section: 'identity',
    level: 'MUST',
    requirements: ['TC-tool.name', 'TC-schema.input_schema_inline'],
  },
  needs: 'session',
  reads: ['descriptions'],
  messages,
  async run(ctx) {
    const dir = ctx.options.cardsDir;
    if (!dir) {
      ctx.skip('no-cards-dir');
      return;
    }
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
    const listed = new Set(ctx.discovery.toolNames);
    const fullDescriptions = ctx.facts.descriptions.full;
    const transcript = ctx.discovery.toolsExchanges;
    for (const file of files) {
      const name = file.slice(0, -'.json'.length);
      const shown = join(dir, file);
      if (!listed.has(name)) {
        ctx.fail('card-for-unlisted-tool', { file: shown, tool: name }, { location: { file: shown }, transcript });
        continue;
      }
      // Read as the lint reads files: never a pipe, never a huge file, a problem is a finding.
      const read = await readLintFile({ path: join(dir, file) }, process.cwd());
      const card = read.source?.parsed ? read.source.value : undefined;
      if (!isPlainObject(card)) {
        const problem = read.readProblem
          ? read.readProblem.code.replace(/-/g, ' ')
          : read.source?.parsed
            ? 'it is not a JSON object'
            : 'it is not valid JSON';
        ctx.fail('card-unreadable', { tool: name, file: shown, problem }, { location: { tool: name, file: shown } });
        continue;
      }
      const proof = ctx.facts.descriptions.reads.get(name);
      const live = fullDescriptions.get(name)?.inputSchema ?? ctx.tools.entry(name)?.inputSchema;
      const against = `the live ${fullDescriptions.has(name) ? 'full description' : 'tools/list'} inputSchema`;
      // The same rules as the lint of card files and the check of served cards, with the same codes.
      ctx.problems(
        name,
        [
          ...toolCardShape(card),
          ...toolCardRules(card, new Date()),
          ...cardIdentityProblems(card, {
            name: { expected: name, why: `its file is ${file}` },
            inputSchema: live,
            against,
          }),
        ],
        { transcript: proof ? [proof] : transcript },
      );
    }
    const missing = [...listed].filter((tool) => !files.includes(`${tool}.json`));
    if (missing.length) ctx.warn('cards-missing', { dir, tools: missing });
    ctx.info('compared', { count: files.length, dir });
  },
});
