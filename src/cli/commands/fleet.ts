// `--server-config`: every server of a config file, one table and a report each; the exit code is
// the worst of them.
import { writeFileSync } from 'node:fs';
import { EXIT, exitCodeFor } from '../../core/exit-codes.js';
import { InputError } from '../../core/input-error.js';
import { TOOL_NAME } from '../../util/version.js';
import { CLI_SPELLING, flagOrDefault, type Flags } from '../options.js';
import { checkOutputPaths, type CliOutput } from '../output.js';
import { parseEnv } from '../target-args.js';
import { checkOptionsFrom, type CheckFlags } from './check.js';

export async function runFleet(words: string[], flags: CheckFlags, out: CliOutput): Promise<number> {
  if (words.length || flags.url) throw new InputError('give either a server command, --url or --server-config, not more than one');
  const [{ readServerConfig }, { checkFleet, fleetRedactor }, { FLEET_FORMATS, renderFleetJson, renderFleetJunit, renderFleetText }] = await Promise.all([
    import('../../library/server-config.js'), import('../../library/fleet.js'), import('../../../reports/fleet.js'),
  ]);
  const render = { text: renderFleetText, json: renderFleetJson, junit: renderFleetJunit } as const;
  for (const format of [flags.format, ...flags.report.map((r) => r.split('=')[0]!)]) {
    if (!(FLEET_FORMATS as readonly string[]).includes(format)) throw new InputError(`--format ${format} does not take several servers; with --server-config use ${FLEET_FORMATS.join(', ')}`);
  }
  checkOutputPaths(flags);
  const config = readServerConfig(flags.serverConfig!, flags.server, parseEnv(flags.env ?? []));
  out.redactor = fleetRedactor(config);
  out.say(`${TOOL_NAME}: ${config.servers.length} server${config.servers.length === 1 ? '' : 's'} in ${config.file}\n`);
  // Each server's env, headers and transport come from the file; the flags' are for --env ${input:ID}.
  const common = checkOptionsFrom([], { ...flags, env: undefined });
  delete (common as { env?: unknown }).env;
  delete (common as { headers?: unknown }).headers;
  delete (common as { inheritEnv?: unknown }).inheritEnv;
  delete (common as { transport?: unknown }).transport;
  const fleet = await checkFleet(config, common, flags.jobs, CLI_SPELLING);
  const color = flags.color && !flags.output && process.stdout.isTTY === true && !process.env.NO_COLOR;
  const text = (format: string) => out.mask(format === 'text' ? render.text(fleet, { color: format === 'text' && color, verbose: flags.verbose }) : render[format as 'json' | 'junit'](fleet));
  for (const spec of flags.report) {
    const [format, file] = [spec.slice(0, spec.indexOf('=')), spec.slice(spec.indexOf('=') + 1)];
    writeFileSync(file, text(format));
  }
  if (flags.output) writeFileSync(flags.output, text(flags.format));
  else process.stdout.write(text(flags.format));
  const codes = fleet.entries.map((e) => (e.report ? exitCodeFor(e.report, flagOrDefault(flags as unknown as Flags, '--fail-on')) : EXIT.unreachable));
  return Math.max(EXIT.ok, ...codes);
}
