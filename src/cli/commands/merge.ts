// `mcp-pd-check merge <report.json…>`: the JSON reports of a sweep's shards (and --out-dir files,
// and single servers' reports) as one fleet report, in any format; the exit code is the fleet's.
import { Command } from 'commander';
import { isAscii } from 'node:buffer';
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../core/input-error.js';
import type { MergeInput } from '../../library/fleet-merge.js';
import { TOOL_NAME } from '../../util/version.js';
import { MERGE_HELP } from '../help.js';
import { flagOrDefault, withOptions, type Flags, type OutputFlags } from '../options.js';
import { checkOutputPaths, CliOutput } from '../output.js';
import { emitFleet } from './fleet.js';

export function mergeCommand(): Command {
  return withOptions(
    new Command('merge')
      .description(
        "Join the JSON reports of a sweep's shards (--shard k/n), --out-dir files and single servers' JSON reports into one fleet report; the exit code is the fleet's, as if it had run in one job.",
      )
      .argument('<reports...>', 'JSON reports, or folders of them (a downloaded artifact folder: every *.json in it)'),
    'merge',
  )
    .addHelpText('after', MERGE_HELP)
    .action(async (paths: string[], _flags: OutputFlags, cmd: Command) => {
      process.exitCode = await runMerge(paths, cmd.opts<OutputFlags>());
    });
}

async function runMerge(paths: string[], flags: OutputFlags): Promise<number> {
  const out = new CliOutput();
  checkOutputPaths(flags);
  const [{ mergeFleetReports }, { fleetExitCode }, { gaps, serverCount }] = await Promise.all([
    import('../../library/fleet-merge.js'),
    import('../../library/fleet.js'),
    import('../../../reports/fleet.js'),
  ]);
  const fleet = mergeFleetReports(paths.flatMap(jsonFiles).map(readInput));
  // Single servers' reports alone are of no fleet file: said as what they are.
  const of = fleet.shape === 'reports' ? '' : ` of ${fleet.file}`;
  const servers = serverCount(fleet);
  out.say(
    `${TOOL_NAME} merge: ${servers} server${servers === 1 ? '' : 's'}${of} from ${fleet.merged} report${fleet.merged === 1 ? '' : 's'}\n`,
  );
  for (const gap of gaps(fleet)) out.say(`${TOOL_NAME} merge: ${gap}\n`);
  await emitFleet(fleet, flags, out);
  return fleetExitCode(fleet, flagOrDefault(flags as unknown as Flags, '--fail-on'), flags.minScore);
}

/** A path given: a file, or every *.json under a folder (dot-files, a run's temporary files, left out). */
function jsonFiles(path: string): string[] {
  let folder: boolean;
  try {
    folder = statSync(path).isDirectory();
  } catch {
    throw new InputError(`merge: '${path}' does not exist`);
  }
  if (!folder) return [path];
  const found = readdirSync(path, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json') && !f.split(/[\\/]/).some((part) => part.startsWith('.')))
    .sort()
    .map((f) => join(path, f));
  if (!found.length) throw new InputError(`merge: the folder '${path}' holds no *.json report`);
  return found;
}

/** One buffer for every file read (grown to the largest): a new one per file is fresh memory to fault in. */
let readBuffer = Buffer.alloc(0);

function readInput(source: string): MergeInput {
  let text: string;
  try {
    const fd = openSync(source, 'r');
    let length = 0;
    try {
      const size = fstatSync(fd).size;
      if (readBuffer.length <= size) readBuffer = Buffer.allocUnsafe(size + 1);
      for (let n; (n = readSync(fd, readBuffer, length, readBuffer.length - length, null)) > 0;) {
        length += n;
        // A file that grew since fstat (or a pipe) is read whole all the same.
        if (length === readBuffer.length)
          readBuffer = Buffer.concat([readBuffer, Buffer.allocUnsafe(readBuffer.length)]);
      }
    } finally {
      closeSync(fd);
    }
    const bytes = readBuffer.subarray(0, length);
    // Reports are mostly ASCII: read as one byte a character they decode and parse twice as fast
    // (a sweep's shards are tens of MB); anything else is UTF-8.
    text = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  } catch (err) {
    throw new InputError(
      `merge: ${source} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  try {
    return { source, value: JSON.parse(text) };
  } catch (err) {
    // A file that ends too soon was cut short; any other is not JSON at all.
    const why = (err as Error).message.replace(/\s+/g, ' ');
    const at = Number(/at position (\d+)/.exec(why)?.[1] ?? -1);
    const ended = /end of (JSON )?input|Unterminated/i.test(why) || at >= text.trimEnd().length;
    throw new InputError(
      ended
        ? `merge: ${source} is not whole JSON (${why}): was its job cut short while writing it?`
        : `merge: ${source} is not JSON (${why}): give the JSON reports of --format json or --report json=FILE`,
    );
  }
}
