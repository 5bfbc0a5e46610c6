import { Command } from 'commander';
import { TOOL_NAME, TOOL_VERSION } from '../util/version.js';
import { asCheckCommand } from './commands/check.js';
import { explainCommand } from './commands/explain.js';
import { initCommand } from './commands/init.js';
import { lintCommand } from './commands/lint.js';
import { listChecksCommand } from './commands/list-checks.js';
import { lockCommand } from './commands/lock.js';
import { mergeCommand } from './commands/merge.js';
import { serveCommand } from './commands/serve.js';
import { PROGRAM_DESCRIPTION } from './help.js';

/** A usage mistake is one line and a pointer to --help, never commander's bare "error:". */
function reportErrors(command: Command): Command {
  const helpCommand = command.name() === TOOL_NAME ? TOOL_NAME : `${TOOL_NAME} ${command.name()}`;
  return (
    command
      .showSuggestionAfterError()
      .exitOverride()
      // One line, what was wrong and what to do (commander puts its "Did you mean" on a line of its own).
      .configureOutput({
        outputError: (str, write) =>
          write(
            `${TOOL_NAME}: ${str
              .replace(/^error: /, '')
              .trim()
              .replace(/\s*\n\s*/g, ' ')} (run '${helpCommand} --help' for usage)\n`,
          ),
      })
  );
}

/** The whole command line: the live check (the program itself) and its subcommands. */
export function buildProgram(): Command {
  const program = new Command(TOOL_NAME)
    .description(PROGRAM_DESCRIPTION)
    .version(TOOL_VERSION, '-V, --version')
    .argument('[command...]', 'the command that starts the server (stdio)');
  asCheckCommand(program);
  for (const sub of [
    lintCommand(),
    listChecksCommand(),
    explainCommand(),
    initCommand(),
    serveCommand(),
    lockCommand(),
    mergeCommand(),
  ])
    program.addCommand(reportErrors(sub));
  return reportErrors(program);
}
