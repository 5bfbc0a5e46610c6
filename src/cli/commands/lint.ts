import { Command } from 'commander';
import { exitCodeFor } from '../../core/exit-codes.js';
import { gate, loadBaseline } from '../baseline-file.js';
import { applyConfig } from '../config-file.js';
import { LINT_HELP } from '../help.js';
import { flagOrDefault, libraryOptions, withOptions, type Flags, type OutputFlags } from '../options.js';
import { checkOutputPaths, CliOutput } from '../output.js';

export function lintCommand(): Command {
  return withOptions(
    new Command('lint')
      .description('Lint tool_descriptions folders, Tool Cards, dashdash metadata and saved tools/list files, offline.')
      .argument('<paths...>', 'files, folders or globs'),
    'lint',
  )
    .addHelpText('after', LINT_HELP)
    .action(async (paths: string[], _flags: OutputFlags, cmd: Command) => {
      await applyConfig(cmd, cmd.opts<{ config?: string }>().config);
      process.exitCode = await runLint(paths, cmd.opts<OutputFlags>());
    });
}

async function runLint(paths: string[], flags: OutputFlags): Promise<number> {
  const out = new CliOutput();
  checkOutputPaths(flags);
  const baseline = await loadBaseline(flags);
  const { lint } = await import('../../library/lint.js');
  const progress = out.progress(flags);
  const linted = await lint(paths, {
    // --only, --skip, --plugin and --rule, as the library takes them
    ...libraryOptions(flags as unknown as Flags, 'lint'),
    hooks: { onCheckStart: (c, i, n) => progress.update(i, n, c.id) },
  });
  progress.clear();
  const report = await gate(linted, flags, baseline, out);
  await out.emit(report, flags);
  return exitCodeFor(report, flagOrDefault(flags as unknown as Flags, '--fail-on'), flags.minScore);
}
