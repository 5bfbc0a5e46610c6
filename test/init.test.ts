// `mcp-pd-check init` (issue 16): from a real server to a folder the lint passes, without calling a tool.
import { isToolForm } from '../src/protocol/tool-form.js';
import t from 'tap';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { REFERENCE, ROOT, runCli, startHttp, tempDir } from './helpers.js';

const FILESYSTEM = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
const SPY = join(ROOT, 'dist', 'test', 'support', 'spy-server.js');

/** Every file under a folder with its content, to see that a second run changed nothing. */
function snapshot(dir: string): string {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .sort()
    .map((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? `${f}/` : `${f}:${readFileSync(p, 'utf8')}`;
    })
    .join('\n');
}

async function lintJson(dir: string): Promise<{ code: number | null; report: CheckReport }> {
  const run = await runCli(['lint', '--format', 'json', dir]);
  return { code: run.code, report: JSON.parse(run.stdout) as CheckReport };
}

t.test('init against server-filesystem: a folder the lint passes, token figures, nothing overwritten', async (t) => {
  const sandbox = tempDir();
  const out = join(tempDir(), 'pd');
  const log = join(tempDir(), 'calls.jsonl');
  const run = await runCli(['init', '--out', out, '--', 'node', SPY, log, '--', 'node', FILESYSTEM, sandbox]);
  t.equal(run.code, 0, run.stderr);
  t.notOk(existsSync(log) && readFileSync(log, 'utf8').trim(), 'no tool was called');
  t.match(run.stdout, /^Wrote 32 files to .* for 14 tools\./);
  t.match(run.stdout, /Tokens of tools\/list \(o200k_base\), today → minimal/);
  t.match(run.stdout, /\n {2}read_file +\d+ → +\d+( +found first +\d+ %)?\n/, 'a figure per tool');
  const total = /\n {2}all +(\d+) → +(\d+) +found first +(\d+) %/.exec(run.stdout);
  t.ok(
    total && Number(total[3]) >= 0 && Number(total[3]) <= 100,
    `beside it, how often the tools' own sentences find them first (${total?.[3]} %)`,
  );
  t.ok(total && Number(total[2]) < Number(total[1]), `the minimal list costs less (${total?.[1]} → ${total?.[2]})`);
  const saving =
    /\nSaving: ([\d,]+) tokens in every prompt against ([\d,]+) for the full descriptions written, (\d+) % \(as pd-token-savings counts it behind serve\)/.exec(
      run.stdout,
    );
  t.ok(saving, 'the saving, as the check counts it');
  t.equal(saving?.[1], total?.[2] && Number(total[2]).toLocaleString('en-US'), 'of the same minimal list');
  t.match(
    run.stdout,
    /No example of a call in the description of 13 tools \('read_file', .*\): none was made up/,
    'no example is invented, and the tools without one are named',
  );
  t.match(run.stdout, /Next:\n {2}1\. Review .*\n[\s\S]* {2}2\. Serve the folder[\s\S]* {2}3\. Run the checker/);

  for (const tool of ['read_file', 'write_file', 'list_allowed_directories']) {
    t.ok(existsSync(join(out, 'tool_descriptions', `${tool}.json`)), `tool_descriptions/${tool}.json`);
    t.ok(existsSync(join(out, '.well-known', 'mcp-tools', `${tool}.json`)), `.well-known/mcp-tools/${tool}.json`);
  }
  for (const file of ['tools-list.minimal.json', 'mcp-pd-check.config.json', '.github/workflows/mcp-pd-check.yml'])
    t.ok(existsSync(join(out, file)), file);
  const card = JSON.parse(readFileSync(join(out, '.well-known', 'mcp-tools', 'read_file.json'), 'utf8'));
  t.same([card.safety.side_effect_class, card.safety.human_approval_required], ['read', false], 'readOnlyHint → read');
  const write = JSON.parse(readFileSync(join(out, '.well-known', 'mcp-tools', 'write_file.json'), 'utf8'));
  t.match(
    write['x-review'],
    /^REVIEW: safety derived from the annotations \(destructiveHint → destructive, human approval required\)/,
    'each card carries its review mark',
  );
  t.same(
    [write.safety.side_effect_class, write.safety.human_approval_required],
    ['destructive', true],
    'destructiveHint → destructive, with approval',
  );
  const minimal = JSON.parse(readFileSync(join(out, 'tools-list.minimal.json'), 'utf8')) as {
    tools: Array<{ inputSchema: Record<string, unknown> }>;
  };
  t.ok(
    minimal.tools.every((tool) => !('properties' in tool.inputSchema) || isToolForm(tool)),
    "the minimal list has no parameter details (but the tool form's: it is called before any fetch)",
  );
  t.equal(
    (minimal.tools[0] as { name?: string } | undefined)?.name,
    'get_tool_descriptions',
    'the tool form of the resource comes first',
  );

  const lint = await lintJson(out);
  t.equal(lint.code, 0, 'the lint passes');
  t.equal(lint.report.summary.failed + lint.report.summary.errors, 0, 'with no error');
  const review = lint.report.results
    .find((r) => r.id === 'lint-needs-review')!
    .findings.filter((f) => f.code === 'needs-review');
  t.ok(review.length >= 28, `review warnings are counted (${review.length})`);
  t.equal(
    review.filter((f) => f.location?.pointer === '/x-review').length,
    15,
    'one on each Tool Card (the tool form serve adds has one too)',
  );

  const text = await runCli(['lint', out]);
  const warningLines = text.stdout.split('\n').filter((l) => /^ {6}warning /.test(l));
  // A pair of near-duplicate descriptions is its own entry: it names both tools.
  const warningCodes = new Set(
    lint.report.results.flatMap((r) =>
      r.findings
        .filter((f) => f.level === 'warning')
        .map((f) => `${r.id}:${f.code}${f.code === 'near-duplicate' ? `:${String(f.args.tool)}` : ''}`),
    ),
  );
  t.ok(
    warningLines.length <= warningCodes.size,
    `the text folds one warning found in many files into one entry (${warningLines.length} lines for ${warningCodes.size} codes)`,
  );
  t.match(
    text.stdout,
    new RegExp(
      `\\+ the same in ${review.length - 1} more places, in 29 files: '\\.well-known/mcp-tools/create_directory\\.json'`,
    ),
    'and names the files it is in',
  );
  const verbose = await runCli(['lint', '--verbose', out]);
  t.ok(
    verbose.stdout.split('\n').filter((l) => /^ {6}warning /.test(l)).length >= review.length,
    '--verbose lists each on its own line',
  );

  const configFile = join(out, 'mcp-pd-check.config.json');
  t.match(
    readFileSync(join(out, '.github', 'workflows', 'mcp-pd-check.yml'), 'utf8'),
    `config: ${relative(ROOT, configFile)}\n`,
    'the workflow names the config from where init ran',
  );
  const checked = await runCli(['--config', configFile, '--only', 'pd-,toolcard-files', '--format', 'json'], {
    cwd: tempDir(),
  });
  const served = JSON.parse(checked.stdout || '{}') as CheckReport;
  t.equal(
    checked.code,
    0,
    `the config starts the server behind serve with the folder from any folder: nothing fails (${checked.stderr.trim()} ${JSON.stringify(served.results?.filter((r) => r.status === 'fail').map((r) => r.id))})`,
  );
  t.match(served.target?.command, /serve --descriptions .* -- node .*server-filesystem/);
  t.equal(served.verdict?.implements, 'yes', 'and the verdict is yes');
  const cards = served.results?.find((r) => r.id === 'toolcard-files');
  t.ok(
    cards && !cards.findings.some((f) => f.code === 'cards-missing' || f.code === 'card-for-unlisted-tool'),
    `every tool behind serve has its card, the tool form serve adds too (${JSON.stringify(cards?.findings.filter((f) => /card/.test(f.code)).map((f) => f.args))})`,
  );

  const before = snapshot(out);
  const again = await runCli(['init', '--out', out, '--', 'node', SPY, log, '--', 'node', FILESYSTEM, sandbox]);
  t.equal(again.code, 0);
  t.match(again.stdout, /^Wrote 0 files to .*\nKept 32 that already exist \(--force overwrites them\)/);
  t.equal(snapshot(out), before, 'a second run without --force changes nothing');
  writeFileSync(join(out, 'tool_descriptions', 'read_file.json'), '{}');
  const forced = await runCli([
    'init',
    '--force',
    '--out',
    out,
    '--',
    'node',
    SPY,
    log,
    '--',
    'node',
    FILESYSTEM,
    sandbox,
  ]);
  t.match(forced.stdout, /^Wrote 32 files/);
  t.equal(snapshot(out), before, '--force writes the same files again (generation is deterministic)');
});

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

t.test('init --url: the config keeps $VARIABLES, never a header value or a credential of the URL', async (t) => {
  const token = 'tok-3f9a1c7e5b2d8046';
  const server = await startHttp(REFERENCE, { MCP_PD_REFERENCE_TOKEN: token });
  t.teardown(() => server.stop());
  const out = join(tempDir(), 'pd');
  const literal = 'literal-key-71c4e2a9d05b';
  const url = new URL(server.url);
  url.username = 'someone';
  url.password = 'pw-9e8d7c6b5a';
  const run = await runCli(
    [
      'init',
      '--out',
      out,
      '--url',
      server.url,
      '--header',
      'Authorization: Bearer $PD_TOKEN',
      '--header',
      `X-Api-Key: ${literal}`,
    ],
    { env: { PD_TOKEN: token } },
  );
  t.equal(run.code, 0, run.stderr);
  const config = JSON.parse(readFileSync(join(out, 'mcp-pd-check.config.json'), 'utf8')) as {
    url: string;
    headers: Record<string, string>;
  };
  t.equal(config.url, server.url);
  t.same(config.headers, {
    Authorization: 'Bearer $PD_TOKEN',
    'X-Api-Key': 'REVIEW: the X-Api-Key value from an environment variable, e.g. $X_API_KEY',
  });
  const everything = snapshot(out) + run.stdout + run.stderr;
  t.notOk(everything.includes(token) || everything.includes(literal), 'no header value is written or printed');

  const withCredentials = join(tempDir(), 'pd');
  const run2 = await runCli(
    [
      'init',
      '--out',
      withCredentials,
      '--url',
      `${url.href}?key=qv-55aa33`,
      '--header',
      'Authorization: Bearer $PD_TOKEN',
    ],
    { env: { PD_TOKEN: token } },
  );
  t.equal(run2.code, 0, run2.stderr);
  const config2 = JSON.parse(readFileSync(join(withCredentials, 'mcp-pd-check.config.json'), 'utf8')) as {
    url: string;
  };
  t.match(
    config2.url,
    /^REVIEW: http:\/\/127\.0\.0\.1:\d+\/mcp\?key=%E2%80%A6 \(credentials and query values were left out/,
  );
  const all2 = snapshot(withCredentials) + run2.stdout;
  t.notOk(
    all2.includes('pw-9e8d7c6b5a') || all2.includes('qv-55aa33'),
    'no password or query value of the URL is written or printed',
  );
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

t.test(
  'init never mixes two servers in one folder: refused with nothing changed, --force writes; the lint flags a mixed folder',
  async (t) => {
    const out = join(tempDir(), 'pd');
    const first = await runCli(['init', '--out', out, '--', 'node', REFERENCE]);
    t.equal(first.code, 0, first.stderr);
    const before = snapshot(out);
    const again = await runCli(['init', '--out', out, '--', 'node', REFERENCE]);
    t.equal(again.code, 0, 'the same server again: its files are kept, nothing refused');
    const other = await runCli(['init', '--out', out, '--', 'node', FILESYSTEM, tempDir()]);
    t.equal(other.code, 2, 'another server: exit 2');
    t.match(
      other.stderr,
      /^mcp-pd-check: --out '[^']+' holds the files of another server \(tool_descriptions\/ describes 'create_note', .*which this server does not list; its mcp-pd-check\.config\.json names .*\): nothing was written\. Give a folder of its own, or --force/m,
      'one line that says why, and what to do',
    );
    t.equal(snapshot(out), before, 'nothing changed');
    const forced = await runCli(['init', '--force', '--out', out, '--', 'node', FILESYSTEM, tempDir()]);
    t.equal(forced.code, 0, '--force writes over it');
    const lint = await lintJson(out);
    t.equal(lint.code, 1, 'the lint of the mixed folder fails');
    t.ok(
      lint.report.results
        .find((r) => r.id === 'lint-tools-list')
        ?.findings.some((f) => f.code === 'other-server-files' && /create_note/.test(f.message)),
      "naming the other server's files",
    );
  },
);

t.test('init: usage errors are one line, exit 2; an unreachable server is exit 3', async (t) => {
  const missing = await runCli(['init', '--from', 'no-such-file.json']);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /^mcp-pd-check: --from 'no-such-file.json' does not exist\n/);
  const both = await runCli(['init', '--from', 'x.json', '--', 'node', 'server.js']);
  t.equal(both.code, 2);
  t.match(both.stderr, /give one source: --from FILE, --url URL or a server command/);
  const nothing = await runCli(['init']);
  t.equal(nothing.code, 2);
  t.match(nothing.stderr, /no server to check/);
  const file = join(tempDir(), 'tools.json');
  writeFileSync(file, JSON.stringify({ tools: [] }));
  const empty = await runCli(['init', '--out', join(tempDir(), 'pd'), '--from', file]);
  t.equal(empty.code, 2);
  t.match(empty.stderr, /^mcp-pd-check: --from .*tools\.json lists no tools: there is nothing to describe/);
  const underFile = await runCli(['init', '--out', join(file, 'pd'), '--', 'node', REFERENCE]);
  t.equal(underFile.code, 2, 'an --out that cannot be made is refused before the server starts');
  t.match(
    underFile.stderr,
    /^mcp-pd-check: --out '.*tools\.json\/pd' cannot be written: '.*tools\.json' is a file, not a folder; give a folder you can write to\n$/,
  );
  const down = await runCli(['init', '--out', tempDir(), '--', 'nonexistent-cmd-xyz']);
  t.equal(down.code, 3);
  t.equal(down.stderr.trim().split('\n').length, 1, 'one line');
});
