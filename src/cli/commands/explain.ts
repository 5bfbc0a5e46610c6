import { Command, Option } from 'commander';
import { TOOL_NAME } from '../../util/version.js';

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function explainCommand(): Command {
  return new Command('explain')
    .description(
      'Explain one check: what it checks, why, how to fix it, and a passing example (or `reach`: which clients let the model read a resource, and where that comes from).',
    )
    .argument('<check-id>', `a check id, as '${TOOL_NAME} list-checks' shows them, or 'reach'`)
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--no-color', 'plain text output (also when NO_COLOR is set or output is not a terminal)')
    .option('--plugin <module>', 'a plugin whose checks to explain too (a path or a package name); repeatable', collect)
    .option('--config <file>', 'the config file whose plugins to load (default: mcp-pd-check.config.json here)')
    .addHelpText(
      'after',
      `\nExamples:\n  $ ${TOOL_NAME} explain pd-description-required\n  $ ${TOOL_NAME} explain --format json lint-schema\n  $ ${TOOL_NAME} explain reach\n\nExit codes: 0 explained, 2 no such check (the closest ids are named) or a usage error,\n            70 an internal error of the checker (a bug: report it with the stack it prints).`,
    )
    .action(async (id: string, flags: { format: string; color: boolean; plugin?: string[]; config?: string }) => {
      if (id === 'reach') {
        const { explainReach } = await import('../explain.js');
        process.stdout.write(explainReach(flags.format === 'json'));
        return;
      }
      const [{ knownChecks }, { explainJson, explainText, findCheck }] = await Promise.all([
        import('../plugin-checks.js'),
        import('../explain.js'),
      ]);
      const check = findCheck(await knownChecks(flags), id);
      const color = flags.color && process.stdout.isTTY === true && !process.env.NO_COLOR;
      process.stdout.write(flags.format === 'json' ? explainJson(check) : explainText(check, color));
    });
}
