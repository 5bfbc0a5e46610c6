import { TOOL_NAME } from '../../util/version.js';
import { Command, Option } from 'commander';

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function listChecksCommand(): Command {
  return new Command('list-checks')
    .description(
      "List every check: id, spec section and level, what it needs (with --plugin or a config's plugins, theirs too).",
    )
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--plugin <module>', 'a plugin whose checks to list too (a path or a package name); repeatable', collect)
    .option('--config <file>', 'the config file whose plugins to load (default: mcp-pd-check.config.json here)')
    .addHelpText(
      'after',
      `\nExamples:\n  $ ${TOOL_NAME} list-checks\n  $ ${TOOL_NAME} list-checks --format json --plugin ./team-checks.mjs\n\nExit codes: 0 listed, 2 a usage error (a plugin that cannot be loaded),\n            70 an internal error of the checker (a bug: report it with the stack it prints).`,
    )
    .action(async (flags: { format: string; plugin?: string[]; config?: string }) => {
      const { knownChecks } = await import('../plugin-checks.js');
      const all = (await knownChecks(flags)).map((c) => ({
        id: c.id,
        title: c.title,
        spec: c.spec,
        needs: c.needs,
        ...(c.plugin ? { plugin: { name: c.plugin.name, version: c.plugin.version } } : {}),
      }));
      if (flags.format === 'json') {
        process.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
        return;
      }
      const width = Math.max(...all.map((c) => c.id.length));
      const specOf = (c: (typeof all)[number]) => `${c.spec.doc} §${c.spec.section}`;
      const specWidth = Math.max(...all.map((c) => specOf(c).length));
      for (const c of all) {
        process.stdout.write(
          `${c.id.padEnd(width)}  ${specOf(c).padEnd(specWidth)} ${c.spec.level.padEnd(11)} ${c.needs.padEnd(8)} ${c.title}\n`,
        );
      }
    });
}
