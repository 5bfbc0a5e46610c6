// `--server-config`: every server of a config file (or of one shard of it), one table and a report
// each; the exit code is the worst of them.
import { invocation } from '../invocation.js';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../../core/input-error.js';
import { TOOL_NAME } from '../../util/version.js';
import { CLI_SPELLING, flagOrDefault, type Flags, type OutputFlags } from '../options.js';
import { checkOutputPaths, reportTargets, type CliOutput } from '../output.js';
import { parseEnv } from '../target-args.js';
import { checkOptionsFrom, type CheckFlags } from '../check-flags.js';
import { loadPlugins, pluginOptions } from '../../library/plugins.js';
import type { FleetResult } from '../../library/fleet.js';
import type { EntryLines } from '../../../reports/fleet.js';
import type { ServerConfig } from '../../library/server-config.js';
import { EXIT } from '../../core/exit-codes.js';
import type { RenderOptions } from '../../../reports/index.js';
import { repositoryPath } from '../sarif-artifact.js';
import { keptOnInterrupt } from '../signals.js';
import { escapeRegExp } from '../../util/regexp.js';

export async function runFleet(words: string[], flags: CheckFlags, out: CliOutput): Promise<number> {
  if (words.length || flags.url)
    throw new InputError('give either a server command, --url or --server-config, not more than one');
  const [{ readServerConfig }, { checkFleet, fleetExitCode, fleetRedactor, validateFleetOptions }, { prepareSweep }] =
    await Promise.all([
      import('../../library/server-config.js'),
      import('../../library/fleet.js'),
      import('../sweep.js'),
    ]);
  checkOutputPaths(flags);
  const config = readServerConfig(flags.serverConfig!, flags.server, parseEnv(flags.env ?? []));
  if (flags.explainPlan) return explainFleetPlan(config, flags);
  out.redactor = fleetRedactor(config);
  // Each server's env, headers and transport come from the file; the flags' are for --env ${input:ID}.
  const common = checkOptionsFrom([], { ...flags, env: undefined });
  delete (common as { env?: unknown }).env;
  delete (common as { headers?: unknown }).headers;
  delete (common as { inheritEnv?: unknown }).inheritEnv;
  delete (common as { transport?: unknown }).transport;
  // Plugins load once, before any server starts (a broken one is a usage error).
  if (common.plugins?.length) common.plugins = await loadPlugins(common.plugins);
  validateFleetOptions(common);
  const sweep = prepareSweep(flags, config, (text) => out.mask(text));
  // A text report on stdout opens with the fleet's headline: the first line would say it twice.
  const headlineOnStdout = flags.output === undefined && (flags.format ?? 'text') === 'text';
  for (const line of sweep.lines.slice(headlineOnStdout ? 1 : 0)) out.say(`${TOOL_NAME}: ${line}\n`);
  if (flags.outDir !== undefined)
    keptOnInterrupt(
      `the servers finished are reported in ${flags.outDir} (rerun with --resume to check only the rest)`,
    );
  // On a terminal, a line that says how far the fleet is (erased before the report).
  const progress = out.progress(flags);
  const fleet = await checkFleet(
    config,
    common,
    flags.jobs,
    CLI_SPELLING,
    (done, total, running) => progress.fleet(done, total, running),
    sweep.options,
  );
  progress.clear();
  await emitFleet(fleet, flags, out);
  return fleetExitCode(fleet, flagOrDefault(flags as unknown as Flags, '--fail-on'), flags.minScore);
}

/** Writes a fleet's report where the flags say (stdout or --output, and every --report file), masked. */
export async function emitFleet(fleet: FleetResult, flags: OutputFlags, out: CliOutput): Promise<void> {
  const fleetReports = await import('../../../reports/fleet.js');
  const render: Record<
    string,
    (fleet: FleetResult, options: RenderOptions & { entryLines?: EntryLines; maxBytes?: number }) => string
  > = {
    text: fleetReports.renderFleetText,
    json: fleetReports.renderFleetJson,
    junit: fleetReports.renderFleetJunit,
    sarif: fleetReports.renderFleetSarif,
    github: fleetReports.renderFleetGithub,
    markdown: fleetReports.renderFleetMarkdown,
    html: fleetReports.renderFleetHtml,
  };
  const color = flags.color && !flags.output && process.stdout.isTTY === true && !process.env.NO_COLOR;
  // On stdout in a GitHub Actions log, the report is fenced off from the runner's command parser.
  const commandsOff = !flags.output && process.env.GITHUB_ACTIONS === 'true' ? crypto.randomUUID() : undefined;
  // SARIF locates every server's findings in the config file that names it, at its entry's line.
  const artifact = repositoryPath(fleet.file);
  const entryLines =
    reportTargets(flags).some(([format]) => format === 'sarif') || flags.format === 'sarif'
      ? linesOfEntries(fleet)
      : undefined;
  // JSON goes out a server at a time (a merged sweep is tens of MB); each piece masked whole.
  const pieces = (format: string, toStdout = false, file?: string): Iterable<string> =>
    format === 'json'
      ? fleetReports.fleetJsonChunks(fleet)
      : [
          render[format](fleet, {
            color: toStdout && format === 'text' && color,
            verbose: flags.verbose,
            artifact,
            entryLines,
            command: invocation().shell,
            ...(toStdout && commandsOff ? { commandsOff } : {}),
            ...(isStepSummary(file) ? { maxBytes: STEP_SUMMARY_BYTES } : {}),
          }),
        ];
  const toFile = (file: string, format: string) => {
    const fd = openSync(file, 'w');
    try {
      writePieces(pieces(format, false, file), out, (bytes) => writeSync(fd, bytes));
    } finally {
      closeSync(fd);
    }
  };
  for (const [format, file] of reportTargets(flags)) toFile(file, format);
  if (flags.output) toFile(flags.output, flags.format);
  else writePieces(pieces(flags.format, true), out, (bytes) => process.stdout.write(Buffer.from(bytes)));
}

/** GitHub shows at most 1 MiB of a step's summary (and drops the rest): a fleet's fits under it. */
const STEP_SUMMARY_BYTES = 1_000_000;

function isStepSummary(file: string | undefined): boolean {
  const summary = process.env.GITHUB_STEP_SUMMARY;
  return file !== undefined && summary !== undefined && summary !== '' && resolve(file) === resolve(summary);
}

/**
 * Pieces masked one by one (a piece holds whole JSON strings: no secret spans two) and encoded into
 * one reused 64 KB buffer, written when full: joining them into strings first cost a merged sweep
 * more than the rest of its output.
 */
function writePieces(pieces: Iterable<string>, out: CliOutput, write: (bytes: Uint8Array) => void): void {
  const buffer = Buffer.allocUnsafe(65_536);
  let used = 0;
  for (const piece of pieces) {
    const text = out.mask(piece);
    // A UTF-16 unit is at most 3 bytes of UTF-8.
    if (used + text.length * 3 > buffer.length) {
      if (used) write(buffer.subarray(0, used));
      used = 0;
      if (text.length * 3 > buffer.length) {
        write(Buffer.from(text));
        continue;
      }
    }
    used += buffer.write(text, used);
  }
  if (used) write(buffer.subarray(0, used));
}

/** --explain-plan of a fleet: the plan each server is checked with, per transport, and nothing started. */
async function explainFleetPlan(config: ServerConfig, flags: CheckFlags): Promise<number> {
  const [{ planCheck }, { planText }] = await Promise.all([
    import('../../library/check-server.js'),
    import('../plan.js'),
  ]);
  const given = checkOptionsFrom([], { ...flags, env: undefined });
  const options = given.plugins?.length ? { ...given, plugins: await loadPlugins(given.plugins) } : given;
  const checked = config.servers.filter((s) => s.problem === undefined);
  const byUrl = checked.filter((s) => s.options.url !== undefined).length;
  const kinds = [
    ...(checked.length > byUrl ? [{ label: `${checked.length - byUrl} over stdio`, url: undefined }] : []),
    ...(byUrl ? [{ label: `${byUrl} over HTTP`, url: 'http://127.0.0.1/' }] : []),
  ];
  const head = `${TOOL_NAME}: ${config.servers.length} servers in ${config.file}${kinds.length ? `: ${kinds.map((k) => k.label).join(', ')}` : ''}; each is checked with the plan of its transport, one server at a time per --jobs. Nothing was started.\n`;
  process.stdout.write(
    head +
      kinds
        .map((k) => `\n${planText(planCheck({ ...options, url: k.url }), options.protocol, pluginOptions(options))}`)
        .join(''),
  );
  return EXIT.ok;
}

/**
 * The line of the fleet's file where each server is named (its key, or its "name"), for SARIF: an
 * alert lands on its server's entry. A file that is not here (a merge elsewhere) or a name not found:
 * none (line 1).
 */
function linesOfEntries(fleet: FleetResult): EntryLines | undefined {
  let lines: string[];
  try {
    lines = readFileSync(fleet.file, 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const found = new Map<string, number>();
  for (const { name } of fleet.entries) {
    // A registry list's second version of a server is `name@version`: its entry names `name`.
    const quoted = [...new Set([JSON.stringify(name), JSON.stringify(name.replace(/@[^@/]+$/, ''))])];
    // Its key first ("notes": {), then its "name", then any mention.
    const tests = [
      ...quoted.map(
        (q) => (line: string) => line.trimStart().startsWith(`${q}:`) || line.trimStart().startsWith(`${q} :`),
      ),
      ...quoted.map((q) => {
        const named = new RegExp(`"name"\\s*:\\s*${escapeRegExp(q)}`);
        return (line: string) => named.test(line);
      }),
      ...quoted.map((q) => (line: string) => line.includes(q)),
    ];
    for (const test of tests) {
      const index = lines.findIndex(test);
      if (index < 0) continue;
      found.set(name, index + 1);
      break;
    }
  }
  return found;
}
