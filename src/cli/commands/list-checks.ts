import { Command, Option } from 'commander';

export function listChecksCommand(): Command {
  return new Command('list-checks')
    .description('List every check: id, spec section and level, what it needs.')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (flags: { format: string }) => {
      const { LIVE_CHECKS, LINT_CHECKS } = await import('../../../checks/index.js');
      const all = [...LIVE_CHECKS, ...LINT_CHECKS].map((c) => ({
        id: c.id,
        title: c.title,
        spec: c.spec,
        needs: c.needs,
      }));
      if (flags.format === 'json') {
        process.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
        return;
      }
      const width = Math.max(...all.map((c) => c.id.length));
      for (const c of all) {
        process.stdout.write(
          `${c.id.padEnd(width)}  ${`${c.spec.doc} §${c.spec.section}`.padEnd(30)} ${c.spec.level.padEnd(11)} ${c.needs.padEnd(8)} ${c.title}\n`,
        );
      }
    });
}
