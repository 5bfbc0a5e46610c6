import { dirname } from 'node:path';
import { defineLintCheck } from '../src/lint/check.js';
import { stem, type LintFile } from '../src/lint/files.js';
import { INPUT_SCHEMA_MESSAGES, inputSchemaProblems } from '../src/rules/input-schema.js';
import { TOOL_DESCRIPTION_MESSAGES, toolDescriptionRules } from '../src/rules/tool-description.js';

const messages = {
  ...TOOL_DESCRIPTION_MESSAGES,
  ...INPUT_SCHEMA_MESSAGES,
  'duplicate-in-folder': {
    message: "Two tool descriptions in one folder are named '{name}': {first} and {second}.",
    hint: 'Tool names must be unique within a server; rename or remove one.',
  },
} as const;

export default defineLintCheck({
  id: 'lint-tool-descriptions',
  title: 'Each tool description is named after its file, has a valid object inputSchema, and examples that match it',
  spec: {
    doc: 'progressive-disclosure',
    section: '3.2',
    level: 'MUST',
    requirements: [
      'PD-3.2-b',
      'PD-3.2-c',
      'PD-3.2-d',
      'PD-7.1-a',
      'MCP-name-a',
      'MCP-name-c',
      'MCP-name-e',
      'MCP-input-a',
      'MCP-input-b',
      'MCP-input-c',
    ],
  },
  needs: 'folder',
  messages,
  async run(ctx) {
    const byFolderAndName = new Map<string, LintFile[]>();
    for (const file of ctx.ofKindOrSkip(
      'tool-description',
      'tool description (tool_descriptions/<tool>.json, or a file with name and inputSchema)',
    )) {
      const d = file.source!.value as Record<string, unknown>;
      // The same rules as the live check of a fetched description (pd-full-descriptions), with the same codes.
      ctx.problems(file, toolDescriptionRules(d, { name: stem(file), why: `its file is ${stem(file)}.json` }));
      // The same MCP inputSchema rules as the live mcp-input-schema, with the same codes.
      ctx.problems(file, inputSchemaProblems(d.inputSchema), '/inputSchema');
      if (typeof d.name === 'string') {
        const key = `${dirname(file.path)}\0${d.name}`;
        byFolderAndName.set(key, [...(byFolderAndName.get(key) ?? []), file]);
      }
    }
    for (const group of byFolderAndName.values()) {
      for (const file of group.slice(1)) {
        ctx.fail(
          'duplicate-in-folder',
          { name: (file.source!.value as { name: string }).name, first: group[0].display, second: file.display },
          { location: ctx.at(file, '/name') },
        );
      }
    }
  },
});
