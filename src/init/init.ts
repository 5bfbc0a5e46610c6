import { isPlainObject } from '../protocol/payload.js';
import { countTokensOf, TOKEN_ENCODING } from '../util/tokens.js';
import { listSelection, listTokens, servedFulls } from '../rules/list-figures.js';
import { minimalListing } from '../rules/minimal-description.js';
import { DESCRIPTIONS_TOOL, descriptionsToolEntry } from '../protocol/server/payloads.js';
import { examplesFromText } from './examples.js';
import { findableDescriptions } from './findable.js';
import type { SelectionFigures } from '../rules/selection.js';
import { REVIEW } from './review.js';
import { NO_PARAMETERS, toolCardStub } from './tool-card-stub.js';
import type { InitSource } from './source.js';
import { TOOL_NAME, TOOL_VERSION } from '../util/version.js';

export type { InitSource } from './source.js';

/** One file init proposes, relative to the output folder. */
export interface InitFile {
  path: string;
  content: string;
}

export interface TokenFigure {
  tool: string;
  before: number;
  after: number;
  full: number;
}

export interface InitPlan {
  files: InitFile[];
  /**
   * Tokens per tool: today's tools/list entry (`before`), the minimal one (`after`) and the full
   * description written (`full`); `saving` is the share pd-token-savings will report behind serve
   * (tokenSaving: the minimal list against the full descriptions).
   */
  tokens: {
    perTool: TokenFigure[];
    before: number;
    after: number;
    full: number;
    saving: number;
    encoding: string;
    /** serve's tool form, when the list written adds it: its entry's and its full description's tokens. */
    form?: { tool: string; after: number; full: number };
    /** Whether the full descriptions written hold REVIEW: placeholders (counted: the figure is an estimate). */
    placeholders: boolean;
    /** A server that discloses already: its own list's figures, as pd-token-savings reports them of it today. */
    served?: { listed: number; full: number; saving: number };
  };
  /** Whether each tool is still found by its proposed minimal description (src/rules/selection.ts). */
  selection: SelectionFigures;
  /** Tools skipped (no usable name). */
  skipped: string[];
  /** Tools whose descriptions give no example of a call (their full description asks for one, REVIEW). */
  withoutExamples: string[];
  /** Tools whose descriptions show calls that do not validate against their own schema (left out). */
  unusableExamples: string[];
  /** Whether the config checks the server behind serve with the folder (a command), or as it is (a URL). */
  served: boolean;
  /** Environment variables the config's command reads in place of secrets given on the command line. */
  variables: Array<{ variable: string; source: string }>;
  /** Variables of the server's environment written as given (nothing secret in them). */
  plainEnv: string[];
  /** The resource the full descriptions were read from, when the server serves progressive disclosure already. */
  disclosedBy?: string;
}

/** A name that is safe as a file name (the MCP name rules, which tools should follow anyway). */
const FILE_SAFE = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Everything `mcp-pd-check init` writes, as data: a description file per tool, the minimal
 * tools/list, Tool Card stubs, the checker's config and CI workflow, and SKILL.md when the server
 * has ai_help. Nothing is written here; the CLI decides what may be overwritten.
 */
export async function planInit(
  source: InitSource,
  where: { configPath?: string; configSchema?: string } = {},
): Promise<InitPlan> {
  const files: InitFile[] = [];
  const skipped: string[] = [];
  const withoutExamples: string[] = [];
  const unusableExamples: string[] = [];
  const tools = source.tools.filter((tool) => {
    const ok = typeof tool.name === 'string' && FILE_SAFE.test(tool.name) && tool.name !== '.' && tool.name !== '..';
    if (!ok) skipped.push(typeof tool.name === 'string' ? tool.name : JSON.stringify(tool.name ?? null));
    return ok;
  });
  const full = tools.map((tool) => {
    const name = tool.name as string;
    // A full description the server already serves is kept as it is.
    if (source.disclosedBy) return tool;
    // Examples only from the server's own text: a value made up here, the real tool may refuse.
    const { examples, unusable } = examplesFromText(tool.description, tool.inputSchema);
    if (!examples.length && hasParameters(tool.inputSchema)) withoutExamples.push(name);
    if (unusable) unusableExamples.push(name);
    return fullDescription(tool, examples);
  });
  // Of the candidate minimal descriptions, the shortest that keeps each tool findable.
  // (its own objective: the queries the server's text gives beyond each first sentence; what it reports is the
  // list's figure, below, as the checks compute it)
  const findable = findableDescriptions(tools);
  const minimal = tools.map((tool, i) => ({ ...minimalListing(tool), description: findable.descriptions[i] }));
  tools.forEach((tool, i) => {
    const name = tool.name as string;
    files.push(json(`tool_descriptions/${name}.json`, full[i]));
    files.push(json(`.well-known/mcp-tools/${name}.json`, toolCardStub(tool, source)));
  });
  // The tool form of the resource, for clients whose model only calls tools (serve offers it; a server of its own may
  // too).
  const form = tools.some((t) => t.name === DESCRIPTIONS_TOOL) ? [] : [descriptionsToolEntry()];
  files.push(json('tools-list.minimal.json', { tools: [...form, ...minimal] }));
  // The config checks a served server with its cards: serve's tool form is one of its tools, so it gets a card too.
  const served = !source.url && !source.disclosedBy;
  if (served)
    for (const tool of form)
      files.push(json(`.well-known/mcp-tools/${DESCRIPTIONS_TOOL}.json`, toolCardStub(tool, source)));
  files.push(json('mcp-pd-check.config.json', config(source, where.configSchema ?? configSchemaUrl())));
  files.push({
    path: '.github/workflows/mcp-pd-check.yml',
    content: workflow(where.configPath ?? 'mcp-pd-check.config.json'),
  });
  if (source.aiHelp) files.push({ path: 'SKILL.md', content: skill(source.aiHelp) });

  // The list written and the full descriptions serve will serve with it (its tool form's too), counted and
  // ranked as pd-token-savings, pd-selection-fidelity and lint do (src/rules/list-figures.ts).
  const listEntries = [...form, ...minimal];
  const fulls = servedFulls(listEntries, new Map(tools.map((tool, i) => [tool.name as string, full[i]])));
  const counted = await listTokens(listEntries, fulls);
  const ofTool = new Map(counted.perTool.map((t) => [t.tool, t]));
  // Today's entry: what tools/list lists (a server that discloses already lists minimal entries of its own).
  const today = (tool: Record<string, unknown>) => source.listed?.find((t) => t.name === tool.name) ?? tool;
  const before = await countTokensOf(tools.map((tool) => JSON.stringify(today(tool))));
  const perTool = tools.map((tool, i) => ({
    tool: tool.name as string,
    before: before[i],
    after: ofTool.get(tool.name as string)?.listed ?? 0,
    full: ofTool.get(tool.name as string)?.full ?? 0,
  }));
  const formFigures = form.length ? ofTool.get(DESCRIPTIONS_TOOL) : undefined;
  const ownList = source.disclosedBy && source.listed ? await listTokens(source.listed, fulls) : undefined;
  return {
    files,
    tokens: {
      perTool,
      before: sum(perTool.map((t) => t.before)),
      after: counted.listed,
      full: counted.full,
      saving: counted.saving,
      encoding: TOKEN_ENCODING,
      ...(formFigures
        ? { form: { tool: DESCRIPTIONS_TOOL, after: formFigures.listed, full: formFigures.full ?? 0 } }
        : {}),
      placeholders: full.some((f) => JSON.stringify(f).includes(REVIEW)),
      ...(ownList ? { served: { listed: ownList.listed, full: ownList.full, saving: ownList.saving } } : {}),
    },
    selection: listSelection(listEntries, fulls).figures,
    skipped,
    withoutExamples,
    unusableExamples,
    // Offline (--from) too: the config has the shape of a live init's, its command a placeholder.
    served,
    variables: source.variables ?? [],
    plainEnv: source.plainEnv ?? [],
    ...(source.disclosedBy ? { disclosedBy: source.disclosedBy } : {}),
  };
}

/** The full description: everything tools/list said, examples, and guidance skeletons to fill in. */
function fullDescription(tool: Record<string, unknown>, examples: unknown[]): Record<string, unknown> {
  const description =
    typeof tool.description === 'string' && tool.description.trim()
      ? tool.description
      : `${REVIEW} describe what ${String(tool.name)} does, when to use it and what it returns`;
  return {
    name: tool.name,
    ...(typeof tool.title === 'string' ? { title: tool.title } : {}),
    description,
    inputSchema: isPlainObject(tool.inputSchema) ? tool.inputSchema : NO_PARAMETERS,
    ...(isPlainObject(tool.outputSchema) ? { outputSchema: tool.outputSchema } : {}),
    examples,
    usage_guidance: {
      common_patterns: [
        `${REVIEW} when to use ${String(tool.name)}, and which arguments go together`,
        ...(examples.length || !hasParameters(tool.inputSchema)
          ? []
          : [
              `${REVIEW} add an example call of ${String(tool.name)} to "examples" (arguments a real call would send): its description gives none`,
            ]),
      ],
      important_notes: [`${REVIEW} what is easy to get wrong (limits, formats, side effects)`],
    },
    error_guidance: {
      common_errors: [
        {
          error: `${REVIEW} an error code or message ${String(tool.name)} returns`,
          cause: `${REVIEW} why it happens`,
          solution: `${REVIEW} what the caller should do`,
        },
      ],
    },
    ...(isPlainObject(tool.annotations) ? { annotations: tool.annotations } : {}),
  };
}

/** Offline (--from) the command is unknown: a placeholder the lint flags until it is filled in. */
const PLACEHOLDER_COMMAND = ['node', `${REVIEW} the command that starts your server, e.g. dist/server.js`];

function commandOf(source: InitSource): string[] {
  return source.command?.length ? source.command : PLACEHOLDER_COMMAND;
}

/**
 * The checker's config. A command is checked through serve with this folder (what init wrote is what
 * is checked; once the server implements progressive disclosure itself, drop the words up to `--`).
 * A URL is checked as it is (serve --listen can put the folder in front of it).
 */
/** The config schema where any editor can fetch it: this version's file of the published package. */
export function configSchemaUrl(): string {
  return `https://unpkg.com/${TOOL_NAME}@${TOOL_VERSION}/schemas/config.schema.json`;
}

function config(source: InitSource, schema: string): Record<string, unknown> {
  // A server that serves progressive disclosure itself is checked as it is, not behind serve.
  const served = source.disclosedBy
    ? commandOf(source)
    : ['mcp-pd-check', 'serve', '--descriptions', source.folderFromCwd ?? '.', '--', ...commandOf(source)];
  return {
    $schema: schema,
    // cwd is always written: paths in a config are relative to the file, wherever the checker runs.
    ...(source.url
      ? { url: source.url, ...(source.headers ? { headers: source.headers } : {}) }
      : {
          command: served,
          cwd: source.cwd ?? '.',
          ...(source.env && Object.keys(source.env).length ? { env: source.env } : {}),
        }),
    cards: '.well-known/mcp-tools',
    failOn: 'error',
  };
}

/** Whether a schema names any parameter (an example of a call says something only then). */
function hasParameters(schema: unknown): boolean {
  return isPlainObject(schema) && isPlainObject(schema.properties) && Object.keys(schema.properties).length > 0;
}

/** The CI workflow: the action reads the config, so the server is named in one place. */
function workflow(configPath: string): string {
  return [
    '# Written by mcp-pd-check init: checks the server on every push (progressive disclosure, dashdash, Tool Cards, MCP rules).',
    `# It belongs in your repository's .github/workflows/; the config path is relative to the repository root.`,
    'name: mcp-pd-check',
    'on: [push, pull_request]',
    'permissions:',
    '  contents: read',
    'jobs:',
    '  mcp-pd-check:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: actions/checkout@v4',
    '      - uses: actions/setup-node@v4',
    '        with: { node-version: 20 }',
    '      # REVIEW: build or install the server here, as its own CI does.',
    '      - uses: <owner>/mcp-pd-check@v0   # REVIEW: the repository that hosts the mcp-pd-check action',
    '        with:',
    `          config: ${yamlString(configPath)}`,
    '          fail-on: error',
    '',
  ].join('\n');
}

/** SKILL.md from the server's own ai_help markdown (dashdash §1.2: the metadata suffices to write one). */
function skill(markdown: string): string {
  return `<!-- ${REVIEW} made by mcp-pd-check init from the server's ai_help markdown; check it before publishing. -->\n${markdown.endsWith('\n') ? markdown : `${markdown}\n`}`;
}

function json(path: string, value: unknown): InitFile {
  return { path, content: `${JSON.stringify(value, null, 2)}\n` };
}

/** A YAML scalar: plain when safe, else JSON's double-quoted form (valid YAML). */
function yamlString(value: string): string {
  return /^[\w./-]+$/.test(value) ? value : JSON.stringify(value);
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
