import { basename, dirname, join } from 'node:path';
import { isToolForm } from '../src/protocol/tool-form.js';
import { defineLintCheck } from '../src/lint/check.js';
import { isPlainObject } from '../src/protocol/payload.js';
import { INPUT_SCHEMA_MESSAGES, inputSchemaProblems } from '../src/rules/input-schema.js';
import { MINIMAL_DESCRIPTION_MESSAGES, minimalDescriptionProblems } from '../src/rules/minimal-description.js';
import { MINIMAL_SCHEMA_MESSAGES, minimalSchemaProblems } from '../src/rules/minimal-schema.js';
import { TOOL_NAME_MESSAGES, toolListNameProblems } from '../src/rules/tool-names.js';
import { MIN_QUERIES, SELECTION_MESSAGES, selectionFigureArgs, selectionProblems } from '../src/rules/selection.js';
import { listSelection, listTokens, servedFulls } from '../src/rules/list-figures.js';
import { compileSchema } from '../src/util/schema.js';
import { clip } from '../src/util/text.js';
import { TOKEN_ENCODING, tokenCounter } from '../src/util/tokens.js';

const messages = {
  ...TOOL_NAME_MESSAGES,
  ...MINIMAL_DESCRIPTION_MESSAGES,
  ...MINIMAL_SCHEMA_MESSAGES,
  ...SELECTION_MESSAGES,
  'draft07-construct': INPUT_SCHEMA_MESSAGES['draft07-construct'],
  'no-input-schema': {
    message: 'Tool \'{tool}\' has no inputSchema; MCP requires one (at least { "type": "object" }).',
    hint: 'Add "inputSchema": { "type": "object" }.',
  },
  'schema-invalid': {
    message: "Tool '{tool}': {key} is not a valid JSON Schema: {problem}.",
    hint: 'Make {key} a JSON Schema object.',
  },
  'input-schema-not-object': {
    message: 'Tool \'{tool}\': inputSchema must have "type": "object".',
    hint: 'Tool arguments are an object.',
  },
  'other-server-files': {
    message:
      "{file} describes '{tool}', which {list} beside it does not list: the folder holds the files of two servers (or of a tool since removed).",
    hint: "Keep one server per folder: remove the other server's files (mcp-pd-check init refuses to write into such a folder without --force).",
  },
  'tool-tokens': "Tool '{tool}': {tokens} tokens in tools/list ({encoding}).",
  'file-tokens': '{file}: {tools|tool}, {tokens} tokens in all ({encoding}).',
  'list-saving':
    '{described} of its {tools|tool} have a full description: {full} tokens against their {describedListed} listed, {percent} % saved, as pd-token-savings counts it behind serve ({encoding}).',
} as const;

export default defineLintCheck({
  id: 'lint-tools-list',
  title: 'A saved tools/list follows the MCP tool rules; its token cost per tool is reported',
  spec: {
    doc: 'mcp-tools',
    section: 'Tool',
    level: 'MUST',
    requirements: [
      'MCP-name-a',
      'MCP-name-c',
      'MCP-name-d',
      'MCP-name-e',
      'MCP-input-a',
      'MCP-input-b',
      'MCP-output-a',
    ],
  },
  needs: 'folder',
  messages,
  async run(ctx) {
    const files = ctx.ofKindOrSkip('tools-list', 'saved tools/list ({ "tools": [...] })');
    const count = await tokenCounter();
    const described = new Map(
      ctx
        .ofKind('tool-description')
        .map((d) => [(d.source!.value as { name: string }).name, d.source!.value as Record<string, unknown>]),
    );
    for (const file of files) {
      const tools = (file.source!.value as { tools: unknown[] }).tools;
      // A progressive-disclosure stage-1 list (tools-list.minimal.json, or one linted beside the
      // tools' full descriptions) is held to the same rules as the live pd-minimal-descriptions.
      const minimal =
        /minimal/i.test(file.display) ||
        tools.some((t) => isPlainObject(t) && typeof t.name === 'string' && described.has(t.name));
      // The same name rules as the live check (mcp-tool-names), with the same codes.
      ctx.problems(file, toolListNameProblems(tools), '/tools');
      let total = 0;
      tools.forEach((tool, i) => {
        if (!isPlainObject(tool) || typeof tool.name !== 'string') return;
        const at = (pointer = '') => ctx.at(file, `/tools/${i}${pointer}`);
        const name = clip(tool.name, 80);
        for (const key of ['inputSchema', 'outputSchema'] as const) {
          if (!(key in tool)) {
            if (key === 'inputSchema') ctx.fail('no-input-schema', { tool: name }, { location: at() });
            continue;
          }
          const c = compileSchema(tool[key]);
          if (c.problem)
            ctx.fail('schema-invalid', { tool: name, key, problem: clip(c.problem, 200) }, { location: at(`/${key}`) });
          else if (key === 'inputSchema' && (tool[key] as Record<string, unknown>).type !== 'object')
            ctx.fail('input-schema-not-object', { tool: name }, { location: at('/inputSchema') });
        }
        // A progressive-disclosure tools/list carries minimal schemas on purpose: only the
        // draft-07 readings apply here; the full schema's rules are in the description's lint.
        ctx.problems(file, inputSchemaProblems(tool.inputSchema, { draft07Only: true }), `/tools/${i}/inputSchema`);
        if (minimal) {
          ctx.problems(file, minimalDescriptionProblems(tool.name, tool.description), `/tools/${i}`);
          // The tool form of the resource says its parameter: it is called before anything is fetched.
          if (!isToolForm(tool))
            ctx.problems(
              file,
              minimalSchemaProblems(tool.inputSchema).map((p) => ({ ...p, args: { tool: tool.name, ...p.args } })),
              `/tools/${i}/inputSchema`,
            );
        }
        const tokens = count(JSON.stringify(tool));
        total += tokens;
        ctx.info('tool-tokens', { tool: tool.name, tokens, encoding: TOKEN_ENCODING }, { location: at() });
      });
      ctx.info(
        'file-tokens',
        { file: file.display, tools: tools.length, tokens: total, encoding: TOKEN_ENCODING },
        { location: ctx.at(file) },
      );
      // The same figures as pd-selection-fidelity and pd-token-savings (src/rules/list-figures.ts): with the full
      // descriptions linted beside these tools (serve's tool form gets the one serve writes), else (a plain
      // tools/list) each description beyond its first sentence is asked.
      const named = tools
        .map((tool, i) => ({ tool, i }))
        .filter(({ tool }) => isPlainObject(tool) && typeof tool.name === 'string');
      const entries = named.map(({ tool }) => tool as Record<string, unknown>);
      const full = servedFulls(entries, minimal ? described : new Map());
      const saving = await listTokens(entries, full);
      if (saving.described)
        ctx.info(
          'list-saving',
          {
            described: saving.described,
            tools: saving.tools,
            full: saving.full,
            describedListed: saving.describedListed,
            percent: Math.round(saving.saving * 100),
            encoding: TOKEN_ENCODING,
          },
          { location: ctx.at(file) },
        );
      const { tools: selection, figures } = listSelection(entries, full);
      const at = new Map(named.map(({ tool, i }) => [(tool as { name: string }).name, i]));
      for (const p of selectionProblems(selection, figures))
        ctx.problems(file, [{ ...p, pointer: `/tools/${at.get(p.tool)}` }]);
      // Each tool's figures, as pd-selection-fidelity gives them (the score weighs them in): only where a tool gave
      // enough queries to be judged at all.
      if (figures.tools.some((x) => x.queries >= MIN_QUERIES))
        for (const f of figures.tools.filter((x) => x.queries > 0))
          ctx.info('selection-figures', selectionFigureArgs(f), { location: ctx.at(file, `/tools/${at.get(f.tool)}`) });
      if (selection.length)
        ctx.info(
          'selection-summary',
          {
            percent: Math.round(figures.top1 * 100),
            queries: figures.queries,
            mrr: figures.mrr.toFixed(2),
            tools: selection.length,
          },
          { location: ctx.at(file) },
        );
      // A folder init wrote holds one server: its tools-list.minimal.json and tool_descriptions/ beside it name the
      // same tools.
      if (minimal) {
        const listed = new Set(named.map(({ tool }) => (tool as { name: string }).name));
        const beside = join(dirname(file.path), 'tool_descriptions');
        for (const d of ctx.ofKind('tool-description').filter((x) => dirname(x.path) === beside)) {
          const name = (d.source!.value as { name?: unknown }).name;
          if (typeof name === 'string' && !listed.has(name))
            ctx.fail(
              'other-server-files',
              { file: d.display, tool: clip(name, 80), list: basename(file.path) },
              { location: ctx.at(d) },
            );
        }
      }
    }
  },
});
