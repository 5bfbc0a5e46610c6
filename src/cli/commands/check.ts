// The main command: a live run against a server. Flags and config → the library's options →
// the report → baseline, output, exit code.
import { type Command } from 'commander';
import { opensOf } from '../../core/check.js';
import { EXIT, exitCodeFor } from '../../core/exit-codes.js';
import { TargetUnavailableError } from '../../transport/types.js';
import { TOOL_NAME } from '../../util/version.js';
import { gate, loadBaseline } from '../baseline-file.js';
import { applyConfig } from '../config-file.js';
import { existsSync } from 'node:fs';
import { liveArtifact } from '../sarif-artifact.js';
import { DEFAULT_CONFIG } from '../../library/option-table.js';
import { CHECK_HELP } from '../help.js';
import { collectIfLarge } from '../memory.js';
import { CLI_SPELLING, flagOrDefault, withOptions, type Flags } from '../options.js';
import { checkOptionsFrom, type CheckFlags } from '../check-flags.js';
import { checkOutputPaths, CliOutput } from '../output.js';
import { exitOnSignals } from '../signals.js';
import { rejectMistypedSubcommand } from '../subcommand-typo.js';
import { UsageError } from '../usage-error.js';
import { flagsAfterCommandHint } from '../target-args.js';

/** Adds the live run's flags and action to the program. */
export function asCheckCommand(program: Command): Command {
  return withOptions(program, 'check')
    .addHelpText('after', CHECK_HELP)
    .enablePositionalOptions()
    .passThroughOptions()
    .action(async (words: string[], _flags: CheckFlags, cmd: Command) => {
      const fromConfig = await applyConfig(cmd, cmd.opts<{ config?: string }>().config);
      const flags = cmd.opts<CheckFlags>();
      // Flags that only shape a fleet do nothing alone: say so rather than ignore them.
      const fleetOnly = ['server', 'jobs', 'shard', 'outDir', 'resume']
        .filter((name) => cmd.getOptionValueSource(name) === 'cli')
        .map((n) => n.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
      if (flags.serverConfig === undefined && fleetOnly.length)
        throw new UsageError(
          `${fleetOnly.map((n) => `--${n}`).join(' and ')} ${fleetOnly.length === 1 ? 'goes' : 'go'} with --server-config FILE (the servers of a config file); for one server give its command or --url alone`,
        );
      process.exitCode = await runCheck(
        words.length || flags.url ? words : fromConfig,
        flags,
        cmd.commands.map((c) => c.name()),
      );
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
  const misplaced = flagsAfterCommandHint(words, process.argv.slice(2), 'check');
  if (misplaced) out.say(`${TOOL_NAME}: ${misplaced}\n`);
  const { planCheck, prepareCheck } = await import('../../library/check-server.js');
  const given = checkOptionsFrom(words, flags);
  // Plugins are loaded before anything starts: a broken one is a usage error (exit 2).
  const { loadPlugins, pluginOptions } = await import('../../library/plugins.js');
  const options = given.plugins?.length ? { ...given, plugins: await loadPlugins(given.plugins) } : given;
  if (flags.explainPlan) {
    const { planText } = await import('../plan.js');
    process.stdout.write(planText(planCheck(options), options.protocol, pluginOptions(options)));
    return EXIT.ok;
  }
  const progress = out.progress(flags);
  const prepared = prepareCheck(
    {
      ...options,
      hooks: {
        onStartWait: (s) => progress.waiting(s),
        onCheckStart: (c, i, n) =>
          progress.update(
            i,
            n,
            c.id,
            opensOf(c, { sessions: prepared.sessions, selected: prepared.checks.map((x) => x.id) }) || undefined,
          ),
        onCheckEnd: collectIfLarge,
      },
    },
    CLI_SPELLING,
  );
  out.redactor = prepared.redactor;
  checkOutputPaths(flags);
  const baseline = await loadBaseline(flags);
  let report;
  const started = performance.now();
  try {
    report = await prepared.run();
  } catch (err) {
    progress.clear();
    if (err instanceof TargetUnavailableError) {
      out.say(`${TOOL_NAME}: cannot check '${err.target ?? prepared.describe}': ${err.message}\n`);
      await out.emitUnchecked(err.target ?? prepared.describe, err.message, flags, performance.now() - started);
      return EXIT.unreachable;
    }
    throw err;
  }
  progress.clear();
  report = await gate(report, flags, baseline, out);
  // SARIF locates a live run's findings in the file that names the server (the config it came from, if any).
  const configFile = flags.config ?? (existsSync(DEFAULT_CONFIG) ? DEFAULT_CONFIG : undefined);
  await out.emit(report, flags, { artifact: liveArtifact(report.target, configFile) });
  return exitCodeFor(report, flagOrDefault(flags as unknown as Flags, '--fail-on'), flags.minScore);
}
