import { defineLiveCheck } from '../src/run/check.js';
import { MODEL_MESSAGES } from '../src/model/rules.js';
import type { LiveContext } from '../src/run/context.js';
import { MINIMAL_SCHEMA_MESSAGES, minimalSchemaProblems } from '../src/rules/minimal-schema.js';
import { isToolForm } from '../src/protocol/tool-form.js';
import { MINIMAL_DESCRIPTION_MESSAGES, minimalDescriptionProblems } from '../src/rules/minimal-description.js';

const messages = {
  ...MODEL_MESSAGES['pd-minimal-descriptions'],
  'empty-list': {
    message: 'tools/list returned no tools, so there is nothing to disclose progressively{problem}.',
    hint: 'Declare the tools capability and list your tools in tools/list.',
  },
  'no-listing': {
    message: 'tools/list got no answer, so nothing can be disclosed progressively: {problem}.',
    hint: "Answer tools/list promptly (it is every client's first request); if the server is only slow, --timeout raises the limit.",
  },
  'listing-asked-again':
    'tools/list got no answer within {first} ms; asked again with {window} ms, it answered (a slow server or a busy machine: the listing was judged).',
  'partial-list': 'Only the tools read before this problem were checked: {problem}.',
  proof: 'tools/list listed {count|tool}, each judged by the rules of a minimal entry.',
  ...MINIMAL_DESCRIPTION_MESSAGES,
  ...MINIMAL_SCHEMA_MESSAGES,
} as const;

type Ctx = LiveContext<keyof typeof messages>;

export default defineLiveCheck({
  id: 'pd-minimal-descriptions',
  title: 'tools/list gives every tool a short description fit for selection, without parameter details',
  spec: {
    doc: 'progressive-disclosure',
    section: '3.1',
    level: 'MUST',
    criterion: 1,
    requirements: ['PD-3.1-a', 'PD-3.1-b', 'PD-3.1-d', 'PD-3.1-e', 'PD-3.1-f'],
  },
  needs: 'session',
  messages,
  async run(ctx) {
    const { tools, toolsExchanges: transcript, toolsProblem, toolsAskedAgain } = ctx.discovery;
    if (tools.length === 0) {
      // No answer is not an empty list: said as what was observed.
      if (transcript.length && transcript.every((ex) => ex.noResponse))
        ctx.fail('no-listing', { problem: toolsProblem ?? 'no answer' }, { transcript });
      else ctx.fail('empty-list', { problem: toolsProblem ? ` (${toolsProblem})` : '' }, { transcript });
      return;
    }
    if (toolsAskedAgain)
      ctx.info('listing-asked-again', { first: toolsAskedAgain.firstMs, window: toolsAskedAgain.windowMs });
    // A broken cursor is mcp-tools-pagination's finding; judge the tools that did arrive.
    if (toolsProblem) ctx.info('partial-list', { problem: toolsProblem });
    ctx.prove('proof', { count: tools.length }, transcript);
    for (const tool of tools) {
      const name = typeof tool.name === 'string' ? tool.name : '(unnamed)';
      // The same rules as the lint of a tools-list.minimal.json (src/rules/).
      for (const p of minimalDescriptionProblems(name, tool.description))
        ctx.problem(p, { location: { tool: name }, ...(p.level === 'fail' ? { transcript } : {}) });
      // The tool form of the resource says its parameter: it is called before anything is fetched.
      if (!isToolForm(tool)) checkSchema(ctx, name, tool.inputSchema, transcript);
    }
  },
});

/** Parameter details anywhere the schema says them: behind $ref, in allOf/anyOf/oneOf as well as at the top. */
function checkSchema(ctx: Ctx, name: string, schema: unknown, transcript: Ctx['discovery']['toolsExchanges']): void {
  // Omitting inputSchema is allowed here (§3.1 MAY); the base MCP rule on it is another check's job.
  for (const p of minimalSchemaProblems(schema)) {
    ctx.fail(
      p.code as 'parameters-in-list' | 'required-in-list',
      { tool: name, ...p.args },
      { location: { tool: name, pointer: `/inputSchema${p.pointer}` }, transcript },
    );
  }
}
