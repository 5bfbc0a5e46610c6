// `mcp-pd-check init`: from a server's tools/list to a progressive-disclosure starting point. It
// reads (initialize, tools/list, ai_help) and never calls a tool.
import { validateOptions } from './validate-options.js';
import { defaultOf } from './option-table.js';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { discover } from '../run/discovery.js';
import { InputError } from '../core/input-error.js';
import { planInit, type InitPlan, type InitSource } from '../init/init.js';
import { isPlainObject } from '../protocol/payload.js';
import { readFullDescriptions } from '../protocol/fetch.js';
import type { Target } from '../transport/target.js';
import type { McpSession } from '../transport/session.js';
import { openFirstEra, type ProtocolChoice } from '../run/eras.js';
import { LIBRARY_SPELLING, type ServerOptions, type Spelling } from './server-options.js';
import { commandWords, serverTarget } from './server-target.js';
import { TargetUnavailableError } from '../transport/types.js';
import { asText } from '../util/text.js';
import { PACKAGE_ROOT } from '../util/version.js';
import { publishableCommand, publishableHeaders, publishableUrl, withEnvironment } from './init-publishable.js';

/** Where init writes, and where the tools come from: a saved tools/list (`from`) or a live server. */
export interface InitServerOptions extends ServerOptions {
  /** Folder to write into (default: the working directory). */
  out?: string;
  /** Overwrite files that exist (by default they are kept). */
  force?: boolean;
  /** A saved tools/list result to read instead of a server (offline). */
  from?: string;
  /**
   * Header values as the committed config may hold them: written with $VARIABLES (the secret stays
   * in the environment). Any other header is written as a REVIEW placeholder, never its value.
   */
  configHeaders?: Record<string, string>;
}

/**
 * Writes a server's tool_descriptions/ folder, a minimal tools/list, Tool Card stubs, the checker's
 * config and CI workflow. Reads the server (initialize, tools/list, ai_help) and never calls a tool.
 * Throws InputError for bad options, TargetUnavailableError when the server cannot be reached.
 */
export async function initServer(given: InitServerOptions, spell: Spelling = LIBRARY_SPELLING): Promise<InitOutcome> {
  validateOptions(given, 'init', spell);
  const options = { ...given, out: given.out ?? defaultOf<string>('out') };
  const words = commandWords(options.command);
  if (options.from !== undefined && (words.length || options.url !== undefined))
    throw new InputError(
      `give one source: ${spell.option('from')} FILE, ${spell.option('url')} URL or a server command`,
    );
  checkOutFolder(options.out, spell);
  let source: InitSource;
  if (options.from !== undefined) {
    source = sourceFromFile(options.from, spell);
  } else {
    const { inEra, describe } = serverTarget(options, spell);
    // The config is read in the output folder: the command runs where it ran now.
    const runsIn = options.cwd ? resolve(options.cwd) : process.cwd();
    const cwd = relative(resolve(options.out), runsIn) || '.';
    // serve, started there, reads the folder from there.
    const folderFromCwd = relative(runsIn, resolve(options.out)).split('\\').join('/') || '.';
    // The config is committed: no credential of the URL or of a header goes into it.
    const headers = Object.keys(options.headers ?? {});
    const how =
      options.url !== undefined
        ? {
            url: publishableUrl(options.url),
            ...(headers.length ? { headers: publishableHeaders(headers, options.configHeaders ?? {}) } : {}),
          }
        : withEnvironment(publishableCommand(words), options.env ?? {}, cwd, folderFromCwd);
    const protocol = options.protocol ?? defaultOf<ProtocolChoice>('protocol');
    source = await openFirstEra(inEra, protocol)
      .then(({ target, session }) => sourceFromServer(target, how, session))
      .catch((err: unknown) => {
        if (err instanceof TargetUnavailableError) err.target = describe;
        throw err;
      });
  }
  if (!source.tools.length)
    throw new InputError(
      `'${options.url ?? words.join(' ')}' lists no tools: there is nothing to describe (is it the right server?)`,
    );
  return writeInit(source, { out: options.out, force: options.force ?? false }, spell);
}

/** What init did: the files written and kept, for the summary and for tests. */
export interface InitOutcome {
  plan: InitPlan;
  written: string[];
  kept: string[];
}

/** Reads the tools from a saved tools/list ({ tools }, a JSON-RPC response, or a bare array). */
function sourceFromFile(file: string, spell: Spelling): InitSource {
  const from = spell.option('from');
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(
      code === 'ENOENT'
        ? `${from} '${file}' does not exist`
        : `${from} ${file} is not valid JSON (${(err as Error).message})`,
    );
  }
  const tools = Array.isArray(parsed)
    ? parsed
    : isPlainObject(parsed) && Array.isArray(parsed.tools)
      ? parsed.tools
      : isPlainObject(parsed) && isPlainObject(parsed.result) && Array.isArray(parsed.result.tools)
        ? parsed.result.tools
        : undefined;
  if (!tools) throw new InputError(`${from} ${file} has no tools: give a saved tools/list result ({ "tools": [...] })`);
  const objects = tools.filter(isPlainObject);
  if (!objects.length)
    throw new InputError(`${from} ${file} lists no tools: there is nothing to describe (is it the right file?)`);
  return { tools: objects };
}

/** Reads a live server: initialize, every page of tools/list, and ai_help when it speaks dashdash. */
async function sourceFromServer(
  target: Target,
  how: Pick<InitSource, 'command' | 'variables' | 'env' | 'cwd' | 'folderFromCwd' | 'url' | 'headers'>,
  opened: McpSession,
): Promise<InitSource> {
  try {
    const { discovery, session } = await discover(target, undefined, opened);
    let aiHelp: string | undefined;
    if (isPlainObject(discovery.initializeResult.dashdash)) {
      const ex = await session.request('ai_help', {});
      const content = (ex.response?.result as { content?: unknown } | undefined)?.content;
      if (typeof content === 'string' && content.trim()) aiHelp = content;
    }
    // A server that serves progressive disclosure already lists minimal entries: its full
    // descriptions are read from its resource (a read, never a call), its tool form left out.
    const resource = discovery.descriptionsResource?.uri;
    if (resource) {
      const form = discovery.descriptionsTool?.name;
      const names = discovery.toolNames.filter((n) => n !== form && !n.includes(','));
      const full = await fullDescriptionsOf(session, resource, names);
      return {
        tools: full,
        // Its whole list, its tool form too: what pd-token-savings counts of it today.
        listed: discovery.tools,
        serverInfo: discovery.serverInfo,
        ...how,
        disclosedBy: resource,
        ...(aiHelp ? { aiHelp } : {}),
      };
    }
    return { tools: discovery.tools, serverInfo: discovery.serverInfo, ...how, ...(aiHelp ? { aiHelp } : {}) };
  } finally {
    await target.dispose();
  }
}

/** The full descriptions of `names`, read from the resource; a tool whose read fails is an InputError naming it. */
async function fullDescriptionsOf(
  session: McpSession,
  resource: string,
  names: string[],
): Promise<Array<Record<string, unknown>>> {
  const { full, unread } = await readFullDescriptions(session, resource, names);
  const first = unread[0];
  if (first) {
    throw new InputError(
      `the server serves progressive disclosure already, but reading the full description of '${first.name}' from ${resource} did not work (${first.why}); init writes a folder from full descriptions, not from minimal entries`,
    );
  }
  return names.map((name) => full.get(name)!);
}

/** Writes the plan into the output folder; an existing file is kept unless `force`. */
async function writeInit(
  source: InitSource,
  options: { out: string; force: boolean },
  spell: Spelling,
): Promise<InitOutcome> {
  const out = resolve(options.out);
  // The workflow names the config from where init ran: the repository root, as a rule.
  const configPath = relative(process.cwd(), join(out, 'mcp-pd-check.config.json')).split('\\').join('/');
  const plan = await planInit(source, { configPath, configSchema: installedConfigSchema(out) });
  // A folder written for another server is never mixed with this one's (serve would refuse the mix later).
  if (!options.force) refuseOtherServer(out, plan, options.out, spell);
  const written: string[] = [];
  const kept: string[] = [];
  // The folder is made and tried before anything is written, so that a bad --out writes nothing.
  writable(out, `${spell.option('out')} '${options.out}'`);
  for (const file of plan.files) {
    const path = join(out, file.path);
    // Paths come from tool names checked against the MCP name characters; this is a last guard.
    if (relative(out, path).startsWith('..')) continue;
    if (existsSync(path) && !options.force) {
      kept.push(file.path);
      continue;
    }
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.content);
    } catch (err) {
      const done = written.length
        ? ` (${written.length} file${written.length === 1 ? ' was' : 's were'} written before it; run again to finish)`
        : '';
      throw new InputError(
        `cannot write '${join(options.out, file.path)}': ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}${done}`,
      );
    }
    written.push(file.path);
  }
  return { plan, written, kept };
}

/**
 * Refuses (InputError, nothing written) a folder that holds another server's files: descriptions of
 * tools this server does not list, or a config that names another server.
 */
function refuseOtherServer(out: string, plan: InitPlan, given: string, spell: Spelling): void {
  const tools = new Set(
    plan.files
      .filter((f) => f.path.startsWith('tool_descriptions/'))
      .map((f) => f.path.slice('tool_descriptions/'.length, -'.json'.length)),
  );
  const folder = join(out, 'tool_descriptions');
  const foreign = existsSync(folder)
    ? readdirSync(folder)
        .filter((f) => f.endsWith('.json') && !tools.has(f.slice(0, -5)))
        .map((f) => f.slice(0, -5))
    : [];
  const configFile = join(out, 'mcp-pd-check.config.json');
  const newConfig = plan.files.find((f) => f.path === 'mcp-pd-check.config.json')?.content;
  let otherConfig: string | undefined;
  if (existsSync(configFile) && newConfig) {
    try {
      const [had, made] = [
        JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>,
        JSON.parse(newConfig) as Record<string, unknown>,
      ];
      const server = (c: Record<string, unknown>) => JSON.stringify(c.url ?? c.command ?? null);
      if (server(had) !== server(made))
        otherConfig = Array.isArray(had.command)
          ? had.command.map(String).join(' ')
          : asText(had.url ?? 'another server');
    } catch {
      /* a config that is not JSON is the lint's to say; it names no server to compare */
    }
  }
  if (!foreign.length && otherConfig === undefined) return;
  const what = [
    ...(foreign.length
      ? [
          `tool_descriptions/ describes ${foreign
            .slice(0, 5)
            .map((t) => `'${t}'`)
            .join(
              ', ',
            )}${foreign.length > 5 ? ` and ${foreign.length - 5} more` : ''}, which this server does not list`,
        ]
      : []),
    ...(otherConfig !== undefined ? [`its mcp-pd-check.config.json names ${clipWords(otherConfig)}`] : []),
  ].join('; ');
  throw new InputError(
    `${spell.option('out')} '${given}' holds the files of another server (${what}): nothing was written. Give a folder of its own, or ${spell.option('force')} to write over it (the other server's files stay until you remove them)`,
  );
}

function clipWords(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * Whether --out can be made and written, checked before a server is started and without creating
 * anything: the nearest part of the path that exists must be a folder we may write in.
 */
function checkOutFolder(given: string, spell: Spelling): void {
  let existing = resolve(given);
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const fail = (why: string) =>
    new InputError(`${spell.option('out')} '${given}' cannot be written: ${why}; give a folder you can write to`);
  if (!statSync(existing).isDirectory())
    throw fail(existing === resolve(given) ? 'it is a file, not a folder' : `'${existing}' is a file, not a folder`);
  try {
    accessSync(existing, constants.W_OK);
  } catch {
    throw fail('permission denied');
  }
}

/** Makes the output folder (checkOutFolder has vetted it); a one-line error if it cannot be made. */
function writable(out: string, named: string): void {
  try {
    mkdirSync(out, { recursive: true });
  } catch (err) {
    throw new InputError(
      `${named} cannot be written: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}; give a folder you can write to`,
    );
  }
}

/**
 * The config schema inside the installed package, relative to the folder written, when the package is the
 * project's own install (node_modules in a folder above it): an editor reads it offline, at the version the
 * project runs. Run from anywhere else (npx's cache, a global install, a checkout), the published file.
 */
function installedConfigSchema(out: string): string | undefined {
  const installed = /^(.*)[\\/]node_modules[\\/]/.exec(PACKAGE_ROOT)?.[1];
  if (installed === undefined || relative(installed, out).startsWith('..')) return undefined;
  return relative(out, join(PACKAGE_ROOT, 'schemas', 'config.schema.json'))
    .split('\\')
    .join('/');
}
