import { Command } from 'commander';
import { EXIT } from '../../core/exit-codes.js';
import { TargetUnavailableError } from '../../transport/types.js';
import { TOOL_NAME } from '../../util/version.js';
import { INIT_HELP } from '../help.js';
import { initSummary } from '../init-summary.js';
import { invocation } from '../invocation.js';
import { CLI_SPELLING, libraryOptions, withOptions, type Flags } from '../options.js';
import { CliOutput } from '../output.js';
import { exitOnSignals } from '../signals.js';
import { flagsAfterCommandHint, writtenHeaders } from '../target-args.js';
import { defaultOf } from '../../library/option-table.js';
import type { InitServerOptions } from '../../library/init-server.js';

interface InitFlags {
  out: string;
  header?: string[];
}

export function initCommand(): Command {
  return withOptions(
    new Command('init')
      .description(
        "Start progressive disclosure from any MCP server: write tool_descriptions/, a minimal tools/list, Tool Card stubs, the checker's config and CI workflow.",
      )
      .argument('[command...]', 'the command that starts the server (stdio)'),
    'init',
  )
    .passThroughOptions()
    .addHelpText('after', INIT_HELP)
    .action(async (words: string[], flags: InitFlags) => {
      process.exitCode = await runInit(words, flags);
    });
}

async function runInit(words: string[], flags: InitFlags): Promise<number> {
  exitOnSignals();
  const out = new CliOutput();
  const misplaced = flagsAfterCommandHint(words, process.argv.slice(2), 'init');
  if (misplaced) out.say(`${TOOL_NAME} init: ${misplaced}\n`);
  const [{ initServer }, { redactorForServer }] = await Promise.all([
    import('../../library/init-server.js'),
    import('../../library/server-target.js'),
  ]);
  const options = {
    ...(libraryOptions(flags as unknown as Flags, 'init', words) as InitServerOptions),
    configHeaders: writtenHeaders(flags.header ?? []),
  };
  // A key among the server's arguments is masked in everything init says (the config gets ${VAR}).
  out.redactor = redactorForServer(options);
  try {
    const outcome = await initServer(options, CLI_SPELLING);
    out.print(initSummary(outcome, { out: options.out ?? defaultOf<string>('out') }, invocation()));
    return EXIT.ok;
  } catch (err) {
    if (err instanceof TargetUnavailableError) {
      out.say(`${TOOL_NAME}: cannot read '${err.target ?? 'the server'}': ${err.message}\n`);
      return EXIT.unreachable;
    }
    throw err;
  }
}
