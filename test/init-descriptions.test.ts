// What `mcp-pd-check init` writes for each tool: minimal descriptions by the checker's rule, examples
// only from the server's own text (or a saved tools/list), SKILL.md from a dashdash server's ai_help,
// and the full descriptions of a server that serves them already; the lint holds
// tools-list.minimal.json to the same rules.
import t from 'tap';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE, ROOT, runCli, startHttp, tempDir } from './helpers.js';
import { lintJson } from './support/lint-json.js';

/** A saved tools/list with schemas of every common kind (patterns, formats, enums, nesting, none). */
function savedList(): string {
  const kinds: Array<Record<string, unknown>> = [
    {
      type: 'object',
      properties: { id: { type: 'string', pattern: '^[a-z]+-\\d+$' } },
      required: ['id'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        when: { type: 'string', format: 'date-time' },
        limit: { type: 'integer', minimum: 1, maximum: 50 },
      },
    },
    {
      type: 'object',
      properties: {
        mode: { enum: ['fast', 'safe'] },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
      },
      required: ['mode'],
    },
    {
      type: 'object',
      properties: {
        filter: { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] },
      },
      required: ['filter'],
    },
  ];
  const tools = Array.from({ length: 40 }, (_, i) => ({
    name: `tool_${i}`,
    description: `Tool ${i} does one thing. More about it here.`,
    ...(i % 10 === 9 ? {} : { inputSchema: kinds[i % kinds.length] }),
    annotations: { readOnlyHint: i % 2 === 0 },
  }));
  const file = join(tempDir(), 'tools-list.json');
  writeFileSync(file, JSON.stringify({ tools }));
  return file;
}

t.test('init --from a saved tools/list: offline, examples that validate, a command left to fill in', async (t) => {
  const out = join(tempDir(), 'pd');
  const run = await runCli(['init', '--out', out, '--from', savedList()]);
  t.equal(run.code, 0, run.stderr);
  const config = JSON.parse(readFileSync(join(out, 'mcp-pd-check.config.json'), 'utf8')) as { command: string[] };
  t.match(config.command.join(' '), /REVIEW: the command that starts your server/);
  const lint = await lintJson(out);
  t.equal(
    lint.report.summary.failed + lint.report.summary.errors,
    0,
    `no error: ${JSON.stringify(lint.report.results.flatMap((r) => r.findings.filter((f) => f.level === 'error').map((f) => f.message)))}`,
  );
  const invalid = lint.report.results.flatMap((r) => r.findings).filter((f) => f.code === 'example-invalid');
  t.same(invalid, [], 'no example that does not validate');
});

t.test(
  "init makes minimal descriptions by the checker's rule, and examples only from the server's own text",
  async (t) => {
    // As servers that document their tools at length write them: tagged examples, code blocks, parameter lists.
    const description = [
      'Finds issues in a Sentry organization that match a search query, newest first. Use it when the user asks what is broken.',
      '<examples>',
      '### Unresolved issues',
      '```json',
      '{"organizationSlug": "my-org", "query": "is:unresolved"}',
      '```',
      '### An output, not a call',
      '```',
      '{"issues": [{"id": "1"}]}',
      '```',
      '</examples>',
      'Parameters:',
      '- organizationSlug (string): the organization',
    ].join('\n');
    const tools = [
      {
        name: 'find_issues',
        description,
        inputSchema: {
          type: 'object',
          properties: { organizationSlug: { type: 'string' }, query: { type: 'string' } },
          required: ['organizationSlug'],
        },
      },
      { name: 'whoami', description: '```\nwhoami\n```', inputSchema: { type: 'object', properties: {} } },
      {
        name: 'get_event',
        description: 'Reads one event by its id. Example: {"eventId": 12}',
        inputSchema: { type: 'object', properties: { eventId: { type: 'string' } }, required: ['eventId'] },
      },
    ];
    const file = join(tempDir(), 'tools-list.json');
    writeFileSync(file, JSON.stringify({ tools }));
    const out = join(tempDir(), 'pd');
    const run = await runCli(['init', '--out', out, '--from', file]);
    t.equal(run.code, 0, run.stderr);
    const minimal = (
      JSON.parse(readFileSync(join(out, 'tools-list.minimal.json'), 'utf8')) as {
        tools: Array<{ name: string; description: string }>;
      }
    ).tools;
    const said = Object.fromEntries(minimal.map((m) => [m.name, m.description]));
    t.equal(
      said.find_issues,
      'Finds issues in a Sentry organization that match a search query, newest first.',
      'the first sentence of the prose, no code, no examples',
    );
    t.match(said.whoami, /^REVIEW: /, 'a description that is only code gets a review mark, not the code');
    t.equal(said.get_event, 'Reads one event by its id.');
    const full = JSON.parse(readFileSync(join(out, 'tool_descriptions', 'find_issues.json'), 'utf8')) as {
      description: string;
      examples: Array<{ input: unknown }>;
    };
    t.same(
      full.examples.map((e) => e.input),
      [{ organizationSlug: 'my-org', query: 'is:unresolved' }],
      "the server's own call is the example; its output is not",
    );
    t.equal(full.description, description, "the full description keeps the server's text, examples included");
    const event = JSON.parse(readFileSync(join(out, 'tool_descriptions', 'get_event.json'), 'utf8')) as {
      examples: unknown[];
    };
    t.same(event.examples, [], 'a call that breaks its own schema (eventId 12 is no string) is left out');
    t.match(run.stdout, /Calls shown in the description of 'get_event' do not validate against its inputSchema/);
    const lint = await lintJson(out);
    t.equal(
      lint.report.summary.failed + lint.report.summary.errors,
      0,
      `the folder lints with no failure: ${JSON.stringify(lint.report.results.flatMap((r) => r.findings.filter((f) => f.level === 'error').map((f) => f.message)))}`,
    );
  },
);

t.test('the lint holds tools-list.minimal.json to the live minimal-description and minimal-schema rules', async (t) => {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'tools-list.minimal.json'),
    JSON.stringify({
      tools: [
        {
          name: 'a_tool',
          description: 'Does a thing. ```json\n{"x": 1}\n```',
          inputSchema: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] },
        },
      ],
    }),
  );
  const lint = await lintJson(dir);
  const codes = lint.report.results
    .find((r) => r.id === 'lint-tools-list')!
    .findings.filter((f) => f.level === 'error')
    .map((f) => f.code)
    .sort();
  t.same(
    [...new Set(codes)],
    ['details-in-description', 'parameters-in-list', 'required-in-list'],
    'the same codes as pd-minimal-descriptions',
  );
  t.equal(lint.code, 1);
});

t.test('init against a dashdash server writes SKILL.md from its ai_help', async (t) => {
  const out = join(tempDir(), 'pd');
  const run = await runCli(['init', '--out', out, '--', 'node', REFERENCE]);
  t.equal(run.code, 0, run.stderr);
  const skill = readFileSync(join(out, 'SKILL.md'), 'utf8');
  t.match(skill, /^<!-- REVIEW: made by mcp-pd-check init from the server's ai_help markdown/);
  t.match(skill, /\n---\nname: /, 'the ai_help front matter follows');
  t.match(skill, /## When to Use/);
});

t.test(
  'init of a server that serves progressive disclosure already: its full descriptions, read from its resource, and not its tool form',
  async (t) => {
    const server = await startHttp(REFERENCE);
    t.teardown(() => server.stop());
    const out = join(tempDir(), 'pd');
    const run = await runCli(['init', '--out', out, '--url', server.url]);
    t.equal(run.code, 0, run.stderr);
    t.match(
      run.stdout,
      /serves progressive disclosure already: the full descriptions were read from resource:\/\/\/tool_descriptions/,
    );
    t.notOk(
      existsSync(join(out, 'tool_descriptions', 'get_tool_descriptions.json')),
      'its own tool form is not one of its tools',
    );
    const written = JSON.parse(readFileSync(join(out, 'tool_descriptions', 'create_note.json'), 'utf8')) as {
      inputSchema: { properties?: Record<string, unknown> };
      examples: unknown[];
    };
    const shipped = JSON.parse(
      readFileSync(join(ROOT, 'reference-server', 'tool_descriptions', 'create_note.json'), 'utf8'),
    ) as { inputSchema: unknown };
    t.same(written.inputSchema, shipped.inputSchema, 'the full inputSchema, not the minimal entry of tools/list');
    t.ok(written.examples.length > 0, "with the server's own examples");
  },
);
