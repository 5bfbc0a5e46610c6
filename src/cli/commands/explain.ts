import { Command, Option } from 'commander';
import { TOOL_NAME } from '../../util/version.js';

export function explainCommand(): Command {
  return new Command('explain')
    .description(
      'Explain one check: what it checks, why, how to fix it, and a passing example (or `reach`: which clients let the model read a resource, and where that comes from).',
    )
    .argument('<check-id>', `a check id, as '${TOOL_NAME} list-checks' shows them, or 'reach'`)
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--no-color', 'plain text output (also when NO_COLOR is set or output is not a terminal)')
    .addHelpText(
      'after',
      `\nExamples:\n  $ ${TOOL_NAME} explain pd-description-required\n  $ ${TOOL_NAME} explain --format json lint-schema\n  $ ${TOOL_NAME} explain reach`,
    )
    .action(async (id: string, flags: { format: string; color: boolean }) => {
      if (id === 'reach') {
        const { explainReach } = await import('../explain.js');
        process.stdout.write(explainReach(flags.format === 'json'));
        return;
      }
      const [{ LIVE_CHECKS, LINT_CHECKS }, { explainJson, explainText, findCheck }] = await Promise.all([
        import('../../../checks/index.js'),
        import('../explain.js'),
      ]);
      const check = findCheck([...LIVE_CHECKS, ...LINT_CHECKS], id);
      const color = flags.color && process.stdout.isTTY === true && !process.env.NO_COLOR;
      process.stdout.write(flags.format === 'json' ? explainJson(check) : explainText(check, color));
    });
}
