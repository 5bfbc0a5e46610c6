// `mcp-pd-check init`: from a server's tools/list to a progressive-disclosure starting point. It
// reads (initialize, tools/list, ai_help) and never calls a tool.
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { discover } from '../discovery.js';
import { planInit, type InitPlan, type InitSource } from '../init/init.js';
import { isPlainObject } from '../pd/payload.js';
import type { Target } from '../target/target.js';
import { REVIEW } from '../init/review.js';
import { ENV_REFERENCE, headerLine } from './target-args.js';
import { UsageError } from './usage-error.js';

export interface InitOptions {
  out: string;
  force: boolean;
  from?: string;
  url?: string;
}

/** What init did: the files written and kept, for the summary and for tests. */
export interface InitOutcome {
  plan: InitPlan;
  written: string[];
  kept: string[];
}

/** Reads the tools from a saved tools/list ({ tools }, a JSON-RPC response, or a bare array). */
export function sourceFromFile(file: string): InitSource {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `--from '${file}' does not exist` : `--from ${file} is not valid JSON (${(err as Error).message})`);
  }
  const tools = Array.isArray(parsed) ? parsed
    : isPlainObject(parsed) && Array.isArray(parsed.tools) ? parsed.tools
    : isPlainObject(parsed) && isPlainObject(parsed.result) && Array.isArray(parsed.result.tools) ? parsed.result.tools
    : undefined;
  if (!tools) throw new UsageError(`--from ${file} has no tools: give a saved tools/list result ({ "tools": [...] })`);
  const objects = tools.filter(isPlainObject);
  if (!objects.length) throw new UsageError(`--from ${file} lists no tools: there is nothing to describe (is it the right file?)`);
  return { tools: objects };
}

/**
 * The URL as the config may keep it: the config is committed, so credentials (user:password@)
 * and query values never go into it; a URL that had them is marked for review instead.
 */
export function publishableUrl(text: string): string {
  const url = new URL(text);
  if (!url.username && !url.password && !url.search) return text;
  url.username = '';
  url.password = '';
  for (const key of [...url.searchParams.keys()]) url.searchParams.set(key, '…');
  return `${REVIEW} ${url.href} (credentials and query values were left out: give secrets as headers with $VARIABLES)`;
}

/**
 * `--header` lines as the config may keep them: a value written with $VARIABLES is kept as
 * written (the secret stays in the environment); a literal value is never written.
 */
export function publishableHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const { name, written } = headerLine(line);
    headers[name] = new RegExp(ENV_REFERENCE.source).test(written) ? written : `${REVIEW} the ${name} value from an environment variable, e.g. $${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
  }
  return headers;
}

/** Reads a live server: initialize, every page of tools/list, and ai_help when it speaks dashdash. */
export async function sourceFromServer(target: Target, how: { command?: string[]; cwd?: string; url?: string; headers?: Record<string, string> }): Promise<InitSource> {
  try {
    const { discovery, session } = await discover(target);
    let aiHelp: string | undefined;
    if (isPlainObject(discovery.initializeResult.dashdash)) {
      const ex = await session.request('ai_help', {});
      const content = (ex.response?.result as { content?: unknown } | undefined)?.content;
      if (typeof content === 'string' && content.trim()) aiHelp = content;
    }
    return { tools: discovery.tools, serverInfo: discovery.serverInfo, ...how, ...(aiHelp ? { aiHelp } : {}) };
  } finally {
    await target.dispose();
  }
}

/** Writes the plan into the output folder; an existing file is kept unless `force`. */
export async function writeInit(source: InitSource, options: InitOptions): Promise<InitOutcome> {
  const out = resolve(options.out);
  // The workflow names the config from where init ran: the repository root, as a rule.
  const configPath = relative(process.cwd(), join(out, 'mcp-pd-check.config.json')).split('\\').join('/');
  const plan = await planInit(source, { configPath });
  const written: string[] = [];
  const kept: string[] = [];
  // The folder is made and tried before anything is written, so that a bad --out writes nothing.
  writable(out, options.out);
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
      const done = written.length ? ` (${written.length} file${written.length === 1 ? ' was' : 's were'} written before it; run again to finish)` : '';
      throw new UsageError(`cannot write '${join(options.out, file.path)}': ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}${done}`);
    }
    written.push(file.path);
  }
  return { plan, written, kept };
}

/**
 * Whether --out can be made and written, checked before a server is started and without creating
 * anything: the nearest part of the path that exists must be a folder we may write in.
 */
export function checkOutFolder(given: string): void {
  let existing = resolve(given);
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const fail = (why: string) => new UsageError(`--out '${given}' cannot be written: ${why}; give a folder you can write to`);
  if (!statSync(existing).isDirectory()) throw fail(existing === resolve(given) ? 'it is a file, not a folder' : `'${existing}' is a file, not a folder`);
  try {
    accessSync(existing, constants.W_OK);
  } catch {
    throw fail('permission denied');
  }
}

/** Makes the output folder (checkOutFolder has vetted it); a one-line error if it cannot be made. */
function writable(out: string, given: string): void {
  try {
    mkdirSync(out, { recursive: true });
  } catch (err) {
    throw new UsageError(`--out '${given}' cannot be written: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}; give a folder you can write to`);
  }
}

/** The summary init prints: what it wrote, the token figures, and the next three steps. */
export function initSummary(outcome: InitOutcome, options: InitOptions, runCommand: string): string {
  const { plan, written, kept } = outcome;
  const out = options.out;
  const lines: string[] = [];
  const tools = plan.tokens.perTool.length;
  lines.push(`Wrote ${written.length} file${written.length === 1 ? '' : 's'} to ${out} for ${tools} tool${tools === 1 ? '' : 's'}.`);
  if (kept.length) lines.push(`Kept ${kept.length} that already exist${kept.length === 1 ? 's' : ''} (--force overwrites them): ${kept.slice(0, 5).join(', ')}${kept.length > 5 ? `, … ${kept.length - 5} more` : ''}.`);
  if (plan.skipped.length) lines.push(`Skipped ${plan.skipped.length} tool${plan.skipped.length === 1 ? '' : 's'} whose name cannot be a file name: ${plan.skipped.slice(0, 5).join(', ')}.`);
  if (plan.droppedExamples) lines.push(`${plan.droppedExamples} generated example${plan.droppedExamples === 1 ? ' was' : 's were'} dropped: ${plan.droppedExamples === 1 ? 'it did' : 'they did'} not validate against ${plan.droppedExamples === 1 ? 'its' : 'their'} schema.`);
  const configFile = join(out, 'mcp-pd-check.config.json');
  const inRoot = resolve(out) === process.cwd();
  const { before, after, encoding } = plan.tokens;
  const saved = before ? Math.round((1 - after / before) * 100) : 0;
  lines.push('', `Tokens of tools/list (${encoding}), before → after (tools-list.minimal.json):`);
  const width = Math.max(4, ...plan.tokens.perTool.map((t) => t.tool.length));
  for (const t of plan.tokens.perTool) lines.push(`  ${t.tool.padEnd(width)}  ${String(t.before).padStart(6)} → ${String(t.after).padStart(5)}`);
  lines.push(`  ${'all'.padEnd(width)}  ${String(before).padStart(6)} → ${String(after).padStart(5)}   ${saved} % less in every prompt`);
  lines.push('  (each minimal entry keeps the title and annotations: clients choose and ask for approval by them)');
  lines.push(
    '',
    'Next:',
    `  1. Review what is marked "REVIEW:": examples and guidance in ${join(out, 'tool_descriptions')}, and the`,
    `     safety fields of each card in ${join(out, '.well-known', 'mcp-tools')} (then delete its "x-review").`,
    `     '${runCommand} lint ${out}' counts what is left.`,
    `  2. Serve the folder: list the resource resource:///tool_descriptions, answer ?tools=a,b from`,
    `     tool_descriptions/<name>.json, refuse calls to unfetched tools with TOOL_DESCRIPTION_REQUIRED, and`,
    `     list tools-list.minimal.json as tools/list. The reference server does all of it: its source is`,
    `     reference-server/server.ts and descriptions.ts in the mcp-pd-check repository.`,
    `  3. Run the checker: '${runCommand} --config ${configFile}' (the config names the server;`,
    `     paths in it are relative to it). ${join(out, '.github', 'workflows', 'mcp-pd-check.yml')} runs it in CI${inRoot ? '.' : ' once moved to'}`,
    ...(inRoot ? [] : [`     your repository's .github/workflows/.`]),
    '',
  );
  return lines.join('\n');
}
