// The main command: a live run against a server. Flags and config → the library's options →
// the report → baseline, output, exit code.
import { Command, Option } from 'commander';
import { opensOf } from '../../core/check.js';
import { EXIT, exitCodeFor } from '../../core/exit-codes.js';
import { DEFAULT_SESSIONS } from '../../run/session-plan.js';
import type { CheckServerOptions } from '../../library/check-server.js';
import { DEFAULT_EXPLORE } from '../../model/explore/defaults.js';
import { DEFAULT_MAX_MESSAGE_MB } from '../../transport/limits.js';
import { TargetUnavailableError } from '../../transport/types.js';
import { TOOL_NAME } from '../../util/version.js';
import { gate, loadBaseline } from '../baseline-file.js';
import { applyConfig } from '../config-file.js';
import { CHECK_HELP } from '../help.js';
import { collectIfLarge } from '../memory.js';
import { CLI_SPELLING, collect, integer, serverOptionsFrom, withOutputFlags, withServerFlags, type OutputFlags, type ServerFlags } from '../options.js';
import { checkOutputPaths, CliOutput } from '../output.js';
import { exitOnSignals } from '../signals.js';
import { rejectMistypedSubcommand } from '../subcommand-typo.js';

const MAX_SESSIONS = 256;
const DEFAULT_MAX_DURATION_S = 600;

export interface CheckFlags extends OutputFlags, ServerFlags {
  maxDuration: number;
  maxResponse: number;
  sessions?: number;
  safeCalls: boolean;
  allowDestructive: boolean;
  explore: number;
  seed?: number;
  require: Array<'dashdash' | 'toolcards'>;
  explainPlan: boolean;
  cards?: string;
  serverConfig?: string;
  server: string[];
  jobs: number;
}

/** The flags of a live run, as the library's options. */
export function checkOptionsFrom(words: string[], flags: CheckFlags): CheckServerOptions {
  return {
    ...serverOptionsFrom(words, flags),
    ...(flags.sessions !== undefined ? { sessions: flags.sessions } : {}),
    safeCalls: flags.safeCalls, allowDestructive: flags.allowDestructive, require: flags.require,
    ...(flags.cards !== undefined ? { cards: flags.cards } : {}),
    only: flags.only, skip: flags.skip, explore: flags.explore,
    ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    failOn: flags.failOn, maxDurationMs: flags.maxDuration * 1000,
  };
}

/** Adds the live run's flags and action to the program. */
export function asCheckCommand(program: Command): Command {
  withServerFlags(program, 'check')
    .option('--sessions <n>', `parallel sessions of the session-isolation check (default ${DEFAULT_SESSIONS.stdio} over stdio: each is a process; ${DEFAULT_SESSIONS.http} over HTTP: sessions are cheap and races need company)`, integer(2, MAX_SESSIONS))
    .option('--max-duration <s>', 'time limit of the whole run in seconds; checks not finished by then are errors', integer(1, 86_400), DEFAULT_MAX_DURATION_S)
    .option('--max-response <MB>', 'largest message accepted from the server; a larger one ends its session', integer(1, 1024), DEFAULT_MAX_MESSAGE_MB)
    .option('--safe-calls', 'call only tools marked read-only (annotations.readOnlyHint)', false)
    .option('--allow-destructive', 'give tools annotated destructiveHint their example arguments (by default they get {}, which a server that checks its arguments refuses)', false)
    .option('--cards <dir>', 'a folder of Tool Card files (<tool>.json) to compare with the live tools: a card per listed tool, none for an unlisted one, no schema drift (over stdio or HTTP)')
    .option('--explore <requests>', 'requests the model-based exploration may send: generated sequences over sessions of its own, judged by the model, a divergence shrunk to its shortest sequence (0: off)', integer(0, 100_000), DEFAULT_EXPLORE)
    .option('--seed <n>', 'seed of the exploration: the report of a run gives the one it used, and the same seed replays it exactly', integer(0, 2 ** 31 - 1))
    .option('--server-config <file>', 'check the servers written in a config file: claude_desktop_config.json, .cursor/mcp.json, .mcp.json (mcpServers), .vscode/mcp.json (servers) or a registry server.json; $VAR, ${VAR}, ${env:VAR} from the environment, ${input:ID} from --env ID=VALUE')
    .option('--server <name>', 'with --server-config: only this server (repeatable)', collect, [])
    .option('--jobs <n>', 'with --server-config: servers checked at the same time', integer(1, 32), 1)
    .option('--explain-plan', 'print which sessions (server processes over stdio) the selected checks will open, in what order and why, then exit without starting anything', false)
    .addOption(new Option('--require <extensions...>', 'fail instead of skip when an optional extension is missing').choices(['dashdash', 'toolcards']).default([]));
  return withOutputFlags(program)
    .addHelpText('after', CHECK_HELP)
    .enablePositionalOptions()
    .passThroughOptions()
    .action(async (words: string[], _flags: CheckFlags, cmd: Command) => {
      const fromConfig = await applyConfig(cmd, cmd.opts().config);
      const flags = cmd.opts<CheckFlags>();
      process.exitCode = await runCheck(words.length || flags.url ? words : fromConfig, flags, cmd.commands.map((c) => c.name()));
    });
}

async function runCheck(words: string[], flags: CheckFlags, subcommands: readonly string[]): Promise<number> {
  exitOnSignals();
  const out = new CliOutput();
  if (flags.serverConfig !== undefined) {
    const { runFleet } = await import('./fleet.js');
    return runFleet(words, flags, out);
  }
  if (!flags.url) rejectMistypedSubcommand(words[0], subcommands, TOOL_NAME);
  const { planCheck, prepareCheck } = await import('../../library/check-server.js');
  const options = checkOptionsFrom(words, flags);
  if (flags.explainPlan) {
    const { planText } = await import('../plan.js');
    process.stdout.write(planText(planCheck(options)));
    return EXIT.ok;
  }
  const progress = out.progress(flags);
  const prepared = prepareCheck({
    ...options,
    hooks: {
      onStartWait: (s) => progress.waiting(s),
      onCheckStart: (c, i, n) => progress.update(i, n, c.id, opensOf(c, { sessions: prepared.sessions, selected: prepared.checks.map((x) => x.id) }) || undefined),
      onCheckEnd: collectIfLarge,
    },
  }, CLI_SPELLING);
  out.redactor = prepared.redactor;
  checkOutputPaths(flags);
  const baseline = await loadBaseline(flags);
  let report;
  try {
    report = await prepared.run();
  } catch (err) {
    progress.clear();
    if (err instanceof TargetUnavailableError) {
      out.say(`${TOOL_NAME}: cannot check '${err.target ?? prepared.describe}': ${err.message}\n`);
      return EXIT.unreachable;
    }
    throw err;
  }
  progress.clear();
  report = await gate(report, flags, baseline, out);
  await out.emit(report, flags);
  return exitCodeFor(report, flags.failOn);
}
