import { Command } from 'commander';
import { EXIT } from '../../core/exit-codes.js';
import { TargetUnavailableError } from '../../transport/types.js';
import { TOOL_NAME } from '../../util/version.js';
import { INIT_HELP } from '../help.js';
import { initSummary } from '../init-summary.js';
import { CLI_SPELLING, serverOptionsFrom, withServerFlags, type ServerFlags } from '../options.js';
import { CliOutput } from '../output.js';
import { exitOnSignals } from '../signals.js';
import { writtenHeaders } from '../target-args.js';

interface InitFlags extends ServerFlags {
  out: string;
  force: boolean;
  from?: string;
}

export function initCommand(): Command {
  return withServerFlags(new Command('init')
    .description('Start progressive disclosure from any MCP server: write tool_descriptions/, a minimal tools/list, Tool Card stubs, the checker\'s config and CI workflow.')
    .argument('[command...]', 'the command that starts the server (stdio)')
    .option('--out <dir>', 'folder to write into', '.')
    .option('--force', 'overwrite files that exist (by default they are kept)', false)
    .option('--from <file>', 'read a saved tools/list result instead of a server (offline)'), 'read')
    .passThroughOptions()
    .addHelpText('after', INIT_HELP)
    .action(async (words: string[], flags: InitFlags) => {
      process.exitCode = await runInit(words, flags);
    });
}

async function runInit(words: string[], flags: InitFlags): Promise<number> {
  exitOnSignals();
  const out = new CliOutput();
  const { initServer } = await import('../../library/init-server.js');
  const options = { ...serverOptionsFrom(words, flags), out: flags.out, force: flags.force, ...(flags.from !== undefined ? { from: flags.from } : {}), configHeaders: writtenHeaders(flags.header) };
  try {
    const outcome = await initServer(options, CLI_SPELLING);
    out.print(initSummary(outcome, { out: flags.out }, TOOL_NAME));
    return EXIT.ok;
  } catch (err) {
    if (err instanceof TargetUnavailableError) {
      out.say(`${TOOL_NAME}: cannot read '${err.target ?? 'the server'}': ${err.message}\n`);
      return EXIT.unreachable;
    }
    throw err;
  }
}
