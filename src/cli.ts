#!/usr/bin/env node
// Heavy modules (schema compilers, reporters, the engine) are imported where they are needed, so
// that --version, --help and a small lint start fast.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { FORMAT_NAMES } from '../reports/formats.js';
import { ProgressLine } from '../reports/progress.js';
import { commandFrom, parseEnv, parseHeaders, parseUrl, withUrlCredentials } from './cli/target-args.js';
import { UsageError } from './cli/usage-error.js';
import { InputError } from './input-error.js';
import { selectChecks } from './select.js';
import { DEFAULT_SESSIONS } from './sessions.js';
import { DEFAULT_EXPLORE } from './model/explore/defaults.js';
import { freshSeed } from './model/explore/random.js';
import { rejectMistypedSubcommand } from './cli/subcommand-typo.js';
import { collectIfLarge } from './cli/memory.js';
import type { CheckReport } from './generated/report.js';
import { opensOf } from './check.js';
import type { Baseline } from './generated/baseline.js';
import type { HttpTransport, Target } from './target/target.js';
import { TargetUnavailableError } from './target/types.js';
import { DEFAULT_MAX_MESSAGE_MB, DEFAULT_STARTUP_TIMEOUT_MS } from './target/limits.js';
import { TOOL_NAME, TOOL_VERSION } from './version.js';
import { asText } from './text.js';
import { Redactor } from './safety/redact.js';
import { safeLine, safeReport } from './safety/output.js';
import { randomUUID } from 'node:crypto';

/**
 * Masks the secrets of this run in everything the CLI prints. It starts with the environment's;
 * a live run replaces it with one that also knows --header and --env values.
 */
let redactor = Redactor.forRun();

/** Every line the CLI writes to stderr goes through here: no secret, no CI command. */
function say(text: string): void {
  process.stderr.write(safeLine(text, redactor));
}

import { EXIT, exitCodeFor, type FailOn } from './exit-codes.js';

interface OutputOptions {
  config?: string;
  format: string;
  output?: string;
  report: string[];
  only: string[];
  skip: string[];
  baseline?: string;
  updateBaseline: boolean;
  quiet: boolean;
  failOn: FailOn;
  color: boolean;
  verbose: boolean;
}

interface LiveCliOptions extends OutputOptions {
  url?: string;
  transport: HttpTransport;
  maxDuration: number;
  maxResponse: number;
  header: string[];
  cwd?: string;
  env: string[];
  inheritEnv: boolean;
  timeout: number;
  startupTimeout: number;
  sessions?: number;
  safeCalls: boolean;
  allowDestructive: boolean;
  explore: number;
  seed?: number;
  require: Array<'dashdash' | 'toolcards'>;
  explainPlan: boolean;
  cards?: string;
}

const MAX_SESSIONS = 256;
const DEFAULT_MAX_DURATION_S = 600;
const DEFAULT_BASELINE = 'mcp-pd-check.baseline.json';

export const DEFAULT_CONFIG = 'mcp-pd-check.config.json';

/** Config keys whose values are paths, read relative to the config file. */
const PATH_KEYS = new Set(['cwd', 'cards', 'output', 'baseline']);

/** Config keys → option names, where they differ. */
const CONFIG_TO_OPTION: Record<string, string> = { timeoutMs: 'timeout', startupTimeoutMs: 'startupTimeout', reports: 'report', headers: 'header' };

/**
 * Fills every option the command line left at its default from the config file (--config, or
 * mcp-pd-check.config.json in the working directory). Returns the server command from the file.
 */
async function applyConfig(command: Command, explicit: string | undefined): Promise<string[]> {
  const file = explicit ?? (existsSync(DEFAULT_CONFIG) ? DEFAULT_CONFIG : undefined);
  if (!file) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `--config '${file}' does not exist` : `config ${file} is not valid JSON (${(err as Error).message})`);
  }
  const { schemaProblemText } = await import('./rules/schema-problems.js');
  const problems = schemaProblemText('config', parsed);
  if (problems.length) throw new UsageError(`config ${file}: ${problems.join('; ')} (see schemas/config.schema.json)`);
  const config = parsed as Record<string, unknown>;
  // Paths in the file are relative to the file (as in tsconfig or .eslintrc), so that
  // `--config server/mcp-pd-check.config.json` means what it means inside server/.
  const base = dirname(file);
  const path = (p: string) => (isAbsolute(p) ? p : join(base, p));
  for (const [key, raw] of Object.entries(config)) {
    if (key === '$schema' || key === 'command') continue;
    const option = CONFIG_TO_OPTION[key] ?? key;
    if (!command.options.some((o) => o.attributeName() === option)) continue; // e.g. url for lint
    if (command.getOptionValueSource(option) === 'cli') continue;
    const value = key === 'env' ? Object.entries(raw as Record<string, string>).map(([k, v]) => `${k}=${v}`)
      : key === 'headers' ? Object.entries(raw as Record<string, string>).map(([k, v]) => `${k}: ${v}`)
      : key === 'reports' ? Object.entries(raw as Record<string, string>).map(([k, v]) => `${k}=${path(v)}`)
      : PATH_KEYS.has(key) ? path(raw as string)
      : raw;
    command.setOptionValueWithSource(option, value, 'config');
  }
  return (config.command as string[] | undefined) ?? [];
}

/** Reads --baseline before the run, so that a bad file costs nothing; undefined when not used. */
async function loadBaseline(opts: OutputOptions): Promise<Baseline | undefined> {
  if (!opts.baseline || opts.updateBaseline) {
    if (opts.updateBaseline) checkOutputPath({ ...opts, output: opts.baseline ?? DEFAULT_BASELINE });
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(opts.baseline, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT'
      ? `--baseline '${opts.baseline}' does not exist; create it with --update-baseline`
      : `--baseline '${opts.baseline}' is not valid JSON (${(err as Error).message})`);
  }
  const [{ BASELINE_VERSION }, { schemaProblemText }] = await Promise.all([import('./baseline.js'), import('./rules/schema-problems.js')]);
  const version = (parsed as { baselineVersion?: unknown } | null)?.baselineVersion;
  if (typeof version === 'number' && version < BASELINE_VERSION) {
    throw new UsageError(`--baseline '${opts.baseline}' is a version ${version} baseline, whose fingerprints hash message text; this checker fingerprints codes and locations: rewrite it once with --update-baseline`);
  }
  const problems = schemaProblemText('baseline', parsed);
  if (problems.length) throw new UsageError(`--baseline '${opts.baseline}' is not a baseline file: ${problems.join('; ')}`);
  return parsed as Baseline;
}

/** Applies or rewrites the baseline after a run. */
async function gate(report: CheckReport, opts: OutputOptions, baseline: Baseline | undefined): Promise<CheckReport> {
  const { applyBaseline, baselineFrom } = await import('./baseline.js');
  if (opts.updateBaseline) {
    const file = opts.baseline ?? DEFAULT_BASELINE;
    const fresh = baselineFrom(report);
    writeFileSync(file, `${JSON.stringify(fresh, null, 2)}\n`);
    say(`${TOOL_NAME}: baseline ${file} written: ${fresh.accepted.length} accepted findings\n`);
    return applyBaseline(report, fresh, file);
  }
  return baseline ? applyBaseline(report, baseline, opts.baseline!) : report;
}

function integer(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

const EXAMPLES = `
Examples:
  $ ${TOOL_NAME} -- node dist/server.js              check a Node server over stdio
  $ ${TOOL_NAME} --url http://127.0.0.1:3000/mcp     check a Streamable HTTP server
  $ ${TOOL_NAME} --url https://mcp.example.com/mcp --header 'Authorization: Bearer $TOKEN'
  $ ${TOOL_NAME} -- python -m my_mcp_server          a Python server
  $ ${TOOL_NAME} "npx -y @acme/mcp-server --debug"   one quoted string is split like a shell would
  $ ${TOOL_NAME} --env API_KEY=test --cwd ./srv -- node server.js
  $ ${TOOL_NAME} --format json --output report.json -- node server.js
  $ ${TOOL_NAME} --explain-plan --only pd-          the sessions a run would open, and why

Everything after the server command (or after --) is passed to the server untouched.
Tools are really called: point the checker at a test instance, not production
(--safe-calls calls only tools marked read-only).

Exit codes: 0 no finding at or above --fail-on, 1 conformance failures,
            2 usage error, 3 the server could not be started or reached.`;

const INIT_HELP = `
It reads initialize, tools/list and (with dashdash) ai_help; it never calls a tool. Generated
texts a human must check start with "REVIEW:"; the lint counts them. A file that exists is kept
unless --force. Paths in the written mcp-pd-check.config.json are relative to it.

Examples:
  $ ${TOOL_NAME} init --out pd -- node dist/server.js
  $ ${TOOL_NAME} init --out pd --url http://127.0.0.1:3000/mcp
  $ ${TOOL_NAME} init --out pd --from tools-list.json

Exit codes: 0 written (or kept), 2 usage error, 3 the server could not be started or reached.`;

const LINT_HELP = `
Recognised files: tool descriptions (in a tool_descriptions/ folder, or with name and
inputSchema), Tool Cards (tool_card_version), dashdash metadata (specVersion and identity,
or an initialize result with dashdash) and saved tools/list results ({ "tools": [...] }).
A folder is searched for *.json; quote globs so that the shell does not expand them.

Examples:
  $ ${TOOL_NAME} lint reference-server/tool_descriptions
  $ ${TOOL_NAME} lint '.well-known/mcp-tools/*.json' tool_descriptions/
  $ ${TOOL_NAME} lint --format json tools-list.json > lint.json

Exit codes: 0 no finding at or above --fail-on, 1 findings, 2 usage error (e.g. a missing path).`;

/** How a server is reached (a command or a URL), shared by live runs and init. */
function withTargetOptions(command: Command, verb: 'check' | 'read'): Command {
  return command
    .option('--url <url>', `${verb} a Streamable HTTP server at this URL instead of starting a command`)
    .addOption(new Option('--transport <transport>', 'HTTP transport for --url: auto tries Streamable HTTP, then the older HTTP+SSE (2024-11-05) on a 4xx').choices(['auto', 'streamable-http', 'sse']).default('auto'))
    .option('--header <Name: value>', 'HTTP header for --url, repeatable; $VAR is read from the environment; never reported', collect, [])
    .option('--cwd <dir>', 'working directory for the server command')
    .option('--env <KEY=VALUE|KEY>', 'environment variable for the server; KEY alone passes the checker\'s own value through (repeatable)', collect, [])
    .option('--inherit-env', 'give the server the checker\'s whole environment (risky: CI secrets reach the server; by default it gets only HOME, LOGNAME, PATH, SHELL, TERM, USER and --env)', false)
    .option('--timeout <ms>', 'time limit for every request', integer(1, 600_000), 5000)
    .option('--startup-timeout <ms>', 'time a server gets to start and answer initialize (a cold npx -y, uvx or JVM takes seconds); once it says anything, --timeout applies', integer(1, 3_600_000), DEFAULT_STARTUP_TIMEOUT_MS);
}

/** The report options shared by live runs and lint. */
function withOutputOptions(command: Command): Command {
  return command
    .option('--config <file>', `settings file (default: ${DEFAULT_CONFIG} in the working directory, if there is one)`)
    .addOption(new Option('-f, --format <format>', 'report format').choices(FORMAT_NAMES).default('text'))
    .option('-o, --output <file>', 'write the report to a file instead of stdout')
    .option('--report <format=file>', `also write a report in another format, e.g. junit=out.xml (repeatable; ${FORMAT_NAMES.join(', ')})`, collect, [])
    .option('--baseline <file>', 'accepted findings: reported, but they do not fail the run; fixed ones are reported as stale')
    .option('--update-baseline', `write this run's findings to the --baseline file (default ${DEFAULT_BASELINE})`, false)
    // One value each (comma lists or repeats): a variadic option would swallow the paths after it.
    .option('--only <ids>', 'run only these checks: ids or prefixes such as pd- or dashdash-, comma-separated or repeated', collect, [])
    .option('--skip <ids>', 'do not run these checks (ids or prefixes, comma-separated or repeated)', collect, [])
    .addOption(new Option('--fail-on <level>', 'lowest finding level that fails the run').choices(['error', 'warning', 'never']).default('error'))
    .option('--no-color', 'plain text output (also when NO_COLOR is set or output is not a terminal)')
    .option('-q, --quiet', 'no progress line on stderr (it is shown only on a terminal anyway)', false)
    .option('-v, --verbose', 'list every finding on its own (by default one code found on many tools is one entry)', false);
}

function reportErrors(command: Command): Command {
  const helpCommand = command.name() === TOOL_NAME ? TOOL_NAME : `${TOOL_NAME} ${command.name()}`;
  return command
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({ outputError: (str, write) => write(`${TOOL_NAME}: ${str.replace(/^error: /, '').trimEnd()}\n(run '${helpCommand} --help' for usage)\n`) });
}

export function buildProgram(): Command {
  const lint = reportErrors(withOutputOptions(new Command('lint')
    .description('Lint tool_descriptions folders, Tool Cards, dashdash metadata and saved tools/list files, offline.')
    .argument('<paths...>', 'files, folders or globs')))
    .addHelpText('after', LINT_HELP)
    .action(async (paths: string[], _opts: OutputOptions, cmd: Command) => {
      await applyConfig(cmd, cmd.opts().config);
      process.exitCode = await runLint(paths, cmd.opts<OutputOptions>());
    });

  const listChecks = reportErrors(new Command('list-checks')
    .description('List every check: id, spec section and level, what it needs.')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (opts: { format: string }) => {
      const { LIVE_CHECKS, LINT_CHECKS } = await import('../checks/index.js');
      const all = [...LIVE_CHECKS, ...LINT_CHECKS].map((c) => ({ id: c.id, title: c.title, spec: c.spec, needs: c.needs }));
      if (opts.format === 'json') {
        process.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
        return;
      }
      const width = Math.max(...all.map((c) => c.id.length));
      for (const c of all) {
        process.stdout.write(`${c.id.padEnd(width)}  ${`${c.spec.doc} §${c.spec.section}`.padEnd(30)} ${c.spec.level.padEnd(11)} ${c.needs.padEnd(8)} ${c.title}\n`);
      }
    }));

  const explain = reportErrors(new Command('explain')
    .description('Explain one check: what it checks, why, how to fix it, and a passing example.')
    .argument('<check-id>', `a check id, as '${TOOL_NAME} list-checks' shows them`)
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--no-color', 'plain text output (also when NO_COLOR is set or output is not a terminal)')
    .addHelpText('after', `\nExamples:\n  $ ${TOOL_NAME} explain pd-description-required\n  $ ${TOOL_NAME} explain --format json lint-schema`)
    .action(async (id: string, opts: { format: string; color: boolean }) => {
      const [{ LIVE_CHECKS, LINT_CHECKS }, { explainJson, explainText, findCheck }] = await Promise.all([import('../checks/index.js'), import('./cli/explain.js')]);
      const check = findCheck([...LIVE_CHECKS, ...LINT_CHECKS], id);
      const color = opts.color && process.stdout.isTTY === true && !process.env.NO_COLOR;
      process.stdout.write(opts.format === 'json' ? explainJson(check) : explainText(check, color));
    }));

  const init = reportErrors(withTargetOptions(new Command('init')
    .description('Start progressive disclosure from any MCP server: write tool_descriptions/, a minimal tools/list, Tool Card stubs, the checker\'s config and CI workflow.')
    .argument('[command...]', 'the command that starts the server (stdio)')
    .option('--out <dir>', 'folder to write into', '.')
    .option('--force', 'overwrite files that exist (by default they are kept)', false)
    .option('--from <file>', 'read a saved tools/list result instead of a server (offline)'), 'read')
    .passThroughOptions()
    .addHelpText('after', INIT_HELP)
    .action(async (words: string[], opts: InitCliOptions) => {
      process.exitCode = await runInit(words, opts);
    }));

  const program = new Command(TOOL_NAME);
  program.description('Check an MCP server against Progressive Disclosure for Tool Descriptions v2.1:\n'
    + 'minimal tools/list, the tool_descriptions resource, and per-session authorization.\n'
    + `Offline: '${TOOL_NAME} lint <paths...>' (see '${TOOL_NAME} lint --help').\n`
    + `Not there yet? '${TOOL_NAME} init' writes a starting point from any server (see '${TOOL_NAME} init --help').\n`
    + `The checks: '${TOOL_NAME} list-checks', '${TOOL_NAME} explain <id>'.`)
    .version(TOOL_VERSION, '-V, --version')
    .argument('[command...]', 'the command that starts the server (stdio)');
  withTargetOptions(program, 'check')
    .option('--sessions <n>', `parallel sessions of the session-isolation check (default ${DEFAULT_SESSIONS.stdio} over stdio: each is a process; ${DEFAULT_SESSIONS.http} over HTTP: sessions are cheap and races need company)`, integer(2, MAX_SESSIONS))
    .option('--max-duration <s>', 'time limit of the whole run in seconds; checks not finished by then are errors', integer(1, 86_400), DEFAULT_MAX_DURATION_S)
    .option('--max-response <MB>', 'largest message accepted from the server; a larger one ends its session', integer(1, 1024), DEFAULT_MAX_MESSAGE_MB)
    .option('--safe-calls', 'call only tools marked read-only (annotations.readOnlyHint)', false)
    .option('--allow-destructive', 'give tools annotated destructiveHint their example arguments (by default they get {}, which a server that checks its arguments refuses)', false)
    .option('--cards <dir>', 'a folder of Tool Card files (<tool>.json) to compare with the live tools: a card per listed tool, none for an unlisted one, no schema drift (over stdio or HTTP)')
    .option('--explore <requests>', `requests the model-based exploration may send: generated sequences over sessions of its own, judged by the model, a divergence shrunk to its shortest sequence (0: off)`, integer(0, 100_000), DEFAULT_EXPLORE)
    .option('--seed <n>', 'seed of the exploration: the report of a run gives the one it used, and the same seed replays it exactly', integer(0, 2 ** 31 - 1))
    .option('--explain-plan', 'print which sessions (server processes over stdio) the selected checks will open, in what order and why, then exit without starting anything', false)
    .addOption(new Option('--require <extensions...>', 'fail instead of skip when an optional extension is missing').choices(['dashdash', 'toolcards']).default([]));
  withOutputOptions(program)
    .addHelpText('after', EXAMPLES)
    .enablePositionalOptions()
    .passThroughOptions()
    .addCommand(lint)
    .addCommand(listChecks)
    .addCommand(explain)
    .addCommand(init)
    .action(async (words: string[], _opts: LiveCliOptions, cmd: Command) => {
      const fromConfig = await applyConfig(cmd, cmd.opts().config);
      process.exitCode = await runLive(words.length || cmd.opts().url ? words : fromConfig, cmd.opts<LiveCliOptions>(), cmd.commands.map((c) => c.name()));
    });
  return reportErrors(program);
}

/** `--report junit=out.xml` → [format, file]; checked before the run, so that no run is lost. */
function reportTargets(opts: OutputOptions): Array<[string, string]> {
  return opts.report.map((spec) => {
    const eq = spec.indexOf('=');
    const format = spec.slice(0, eq);
    const file = spec.slice(eq + 1);
    if (eq <= 0 || !file) throw new UsageError(`--report expects FORMAT=FILE, e.g. junit=report.xml; got '${spec}'`);
    if (!(FORMAT_NAMES as readonly string[]).includes(format)) throw new UsageError(`--report: unknown format '${format}' (choose from ${FORMAT_NAMES.join(', ')})`);
    if (!isDirectory(dirname(resolve(file)))) throw new UsageError(`cannot write --report ${format}=${file}: the folder '${dirname(file)}' does not exist`);
    return [format, file];
  });
}

interface InitCliOptions {
  out: string;
  force: boolean;
  from?: string;
  url?: string;
  transport: HttpTransport;
  header: string[];
  cwd?: string;
  env: string[];
  inheritEnv: boolean;
  timeout: number;
  startupTimeout: number;
}

async function runInit(words: string[], opts: InitCliOptions): Promise<number> {
  exitOnSignals();
  const { checkOutFolder, sourceFromFile, sourceFromServer, writeInit, initSummary, publishableUrl, publishableHeaders } = await import('./cli/init-command.js');
  if (opts.from && (words.length || opts.url)) throw new UsageError('give one source: --from FILE, --url URL or a server command');
  checkOutFolder(opts.out);
  let source;
  if (opts.from) {
    source = sourceFromFile(opts.from);
  } else {
    const live = { ...opts, require: [], maxResponse: DEFAULT_MAX_MESSAGE_MB, maxDuration: DEFAULT_MAX_DURATION_S } as unknown as LiveCliOptions;
    const target = await targetFrom(words, live);
    try {
      // The config is read in the output folder: the command runs where it ran now.
      const cwd = relative(resolve(opts.out), opts.cwd ? resolve(opts.cwd) : process.cwd()) || '.';
      // The config is committed: no credential of the URL or of a header goes into it.
      const how = opts.url ? { url: publishableUrl(opts.url), ...(opts.header.length ? { headers: publishableHeaders(opts.header) } : {}) } : { command: words, cwd };
      source = await sourceFromServer(target, how);
    } catch (err) {
      if (err instanceof TargetUnavailableError) {
        say(`${TOOL_NAME}: cannot read '${target.describe}': ${err.message}\n`);
        return EXIT.unreachable;
      }
      throw err;
    }
  }
  if (!source.tools.length) throw new UsageError(`'${opts.url ?? words.join(' ')}' lists no tools: there is nothing to describe (is it the right server?)`);
  const outcome = await writeInit(source, { out: opts.out, force: opts.force, from: opts.from, url: opts.url });
  process.stdout.write(safeLine(initSummary(outcome, { out: opts.out, force: opts.force }, TOOL_NAME), redactor));
  return EXIT.ok;
}

async function runLint(paths: string[], opts: OutputOptions): Promise<number> {
  checkOutputPath(opts);
  reportTargets(opts);
  const baseline = await loadBaseline(opts);
  const [{ LINT_CHECKS }, { lintPaths }] = await Promise.all([import('../checks/index.js'), import('./lint/lint.js')]);
  const progress = progressFor(opts);
  const linted = await lintPaths(paths, { cwd: process.cwd(), checks: selectChecks(LINT_CHECKS, opts.only, opts.skip), hooks: { onCheckStart: (c, i, n) => progress.update(i, n, c.id) } });
  progress.clear();
  const report = await gate(linted, opts, baseline);
  await emit(report, opts);
  return exitCodeFor(report, opts.failOn);
}

function progressFor(opts: OutputOptions): ProgressLine {
  return new ProgressLine(process.stderr, process.stderr.isTTY === true && !opts.quiet);
}

function checkOutputPath(opts: OutputOptions): void {
  if (opts.output && !isDirectory(dirname(resolve(opts.output)))) {
    throw new UsageError(`cannot write --output '${opts.output}': the folder '${dirname(opts.output)}' does not exist`);
  }
}

async function targetFrom(words: string[], opts: LiveCliOptions): Promise<Target> {
  const { HttpTarget, StdioTarget } = await import('./target/target.js');
  if (opts.url) {
    if (words.length) throw new UsageError(`give either a server command or --url, not both (got --url and '${words[0]}')`);
    if (opts.cwd || opts.env.length || opts.inheritEnv) throw new UsageError('--cwd, --env and --inherit-env apply to a server command, not to --url');
    const given = parseUrl(opts.url);
    const { url, headers } = withUrlCredentials(given, parseHeaders(opts.header));
    redactor = Redactor.forRun({ headers, url: given });
    return new HttpTarget(url, headers, { timeoutMs: opts.timeout, startupTimeoutMs: opts.startupTimeout, limits: limitsFrom(opts), redactor, transport: opts.transport });
  }
  if (opts.header.length) throw new UsageError('--header goes with --url');
  if (opts.transport !== 'auto') throw new UsageError('--transport goes with --url (a server command always speaks stdio)');
  if (opts.require.includes('toolcards') && !opts.cards) throw new UsageError('--require toolcards needs --url (Tool Cards served at /.well-known/mcp-tools/) or --cards DIR (card files to compare with the live tools)');
  if (!words.length) throw new UsageError('no server to check: give the command that starts it (mcp-pd-check -- node server.js) or --url http://host/mcp');
  const env = parseEnv(opts.env);
  redactor = Redactor.forRun({ serverEnv: env });
  const command = { ...commandFrom(words, opts.cwd ? resolve(opts.cwd) : undefined, env), inheritEnv: opts.inheritEnv };
  if (opts.cwd && !isDirectory(opts.cwd)) throw new UsageError(`--cwd '${opts.cwd}' is not a directory`);
  return new StdioTarget(command, { timeoutMs: opts.timeout, startupTimeoutMs: opts.startupTimeout, limits: limitsFrom(opts), redactor });
}

function limitsFrom(opts: LiveCliOptions) {
  return { maxMessageBytes: opts.maxResponse * 1024 * 1024 };
}

async function runLive(words: string[], opts: LiveCliOptions, subcommands: readonly string[]): Promise<number> {
  exitOnSignals();
  if (!opts.url) rejectMistypedSubcommand(words[0], subcommands, TOOL_NAME);
  const [{ LIVE_CHECKS }, { checkTarget }] = await Promise.all([import('../checks/index.js'), import('./live.js')]);
  const checks = selectChecks(LIVE_CHECKS, opts.only, opts.skip);
  if (opts.explainPlan) {
    const [{ sessionPlan }, { planText }, { explorationSessions }] = await Promise.all([import('./sessions.js'), import('./cli/plan.js'), import('./model/explore/explore.js')]);
    const transport = opts.url ? 'http' : 'stdio';
    const explore = opts.explore > 0 && checks.some((c) => c.spec.criterion !== undefined) ? explorationSessions(transport === 'http' ? 'cheap' : 'process', opts.explore).total : 0;
    process.stdout.write(planText(sessionPlan(checks, { sessions: opts.sessions ?? DEFAULT_SESSIONS[transport], transport, explore })));
    return EXIT.ok;
  }
  if (opts.cards !== undefined && !isDirectory(opts.cards)) throw new UsageError(`--cards '${opts.cards}' is not a folder (give the folder that holds <tool>.json Tool Cards, e.g. .well-known/mcp-tools)`);
  const target = await targetFrom(words, opts);
  checkOutputPath(opts);
  reportTargets(opts);
  const baseline = await loadBaseline(opts);
  const progress = progressFor(opts);
  let report: CheckReport;
  try {
    const sessions = opts.sessions ?? DEFAULT_SESSIONS[target.kind === 'http' ? 'http' : 'stdio'];
    const selected = checks.map((c) => c.id);
    const seed = opts.seed ?? freshSeed();
    report = await checkTarget(target, { timeoutMs: opts.timeout, sessions, safeCalls: opts.safeCalls, allowDestructive: opts.allowDestructive, require: opts.require, explore: opts.explore, seed, ...(opts.cards !== undefined ? { cardsDir: resolve(opts.cards) } : {}) }, {
      checks,
      hooks: { onStartWait: (s) => progress.waiting(s), onCheckStart: (c, i, n) => progress.update(i, n, c.id, opensOf(c, { sessions, selected }) || undefined), onCheckEnd: collectIfLarge },
      reportOptions: { timeoutMs: opts.timeout, startupTimeoutMs: opts.startupTimeout, sessions, safeCalls: opts.safeCalls, allowDestructive: opts.allowDestructive, failOn: opts.failOn, explore: opts.explore, seed },
      maxDurationMs: opts.maxDuration * 1000,
    });
  } catch (err) {
    progress.clear();
    if (err instanceof TargetUnavailableError) {
      say(`${TOOL_NAME}: cannot check '${target.describe}': ${err.message}\n`);
      return EXIT.unreachable;
    }
    throw err;
  }
  progress.clear();
  report = await gate(report, opts, baseline);
  await emit(report, opts);
  return exitCodeFor(report, opts.failOn);
}

async function emit(unsafe: CheckReport, opts: OutputOptions): Promise<void> {
  const { REPORTERS } = await import('../reports/index.js');
  const report = safeReport(unsafe, redactor);
  for (const [format, file] of reportTargets(opts)) {
    try {
      writeFileSync(file, REPORTERS[format]!(report, { color: false, verbose: opts.verbose }));
    } catch (err) {
      say(`${TOOL_NAME}: could not write ${file} (${(err as Error).message})\n`);
    }
  }
  const toFile = Boolean(opts.output);
  const color = opts.color && !toFile && process.stdout.isTTY === true && !process.env.NO_COLOR;
  // In a GitHub Actions log, a report on stdout is fenced off from the runner's command parser.
  const commandsOff = !toFile && process.env.GITHUB_ACTIONS === 'true' ? randomUUID() : undefined;
  const text = REPORTERS[opts.format]!(report, { color, commandsOff, verbose: opts.verbose });
  if (!toFile) {
    process.stdout.write(text);
    return;
  }
  try {
    writeFileSync(opts.output!, text);
    const s = report.summary;
    say(`${TOOL_NAME}: ${s.passed} passed, ${s.failed} failed, ${s.warnings} warnings, ${s.skipped} skipped, ${s.errors} errors; report written to ${opts.output}\n`);
  } catch (err) {
    // Never lose a finished run: print the report instead.
    process.stdout.write(text);
    say(`${TOOL_NAME}: could not write ${opts.output} (${(err as Error).message}); the report was printed instead\n`);
  }
}


function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/**
 * Ctrl-C or SIGTERM during a live run: exit through the normal path, so that every server process
 * is killed. Only then: anything else (lint, help) keeps the default action, which ends the
 * process at once whatever its main thread is doing.
 */
function exitOnSignals(): void {
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
}

async function main(argv: string[]): Promise<void> {
  // A reader that stops early (`| head`) closes the pipe: stop quietly, as other CLIs do.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => process.exit(err.code === 'EPIPE' ? (process.exitCode ?? 0) : 74));
  }
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    } else if (err instanceof InputError) {
      say(`${TOOL_NAME}: ${err.message}\n`);
      process.exitCode = EXIT.usage;
    } else {
      say(`${TOOL_NAME}: internal error: ${(err as Error)?.stack ?? asText(err)}\nPlease report this at the project's issue tracker.\n`);
      process.exitCode = 70;
    }
  }
}

await main(process.argv);
// Do not let a server's leftover pipes or timers keep the checker alive, but exit only once
// everything written has reached the pipe (a report can be larger than the pipe buffer).
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((done) => stream.write('', done))));
process.exit();
