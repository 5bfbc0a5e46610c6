import { Command } from 'commander';
import { existsSync, writeFileSync } from 'node:fs';
import { EXIT } from '../../core/exit-codes.js';
import { InputError } from '../../core/input-error.js';
import { TargetUnavailableError } from '../../transport/types.js';
import { TOOL_NAME } from '../../util/version.js';
import { formatNumber } from '../../util/text.js';
import { LOCK_HELP } from '../help.js';
import { CLI_SPELLING, libraryOptions, withOptions, type Flags } from '../options.js';
import { checkOutputPaths, CliOutput, reportTargets } from '../output.js';
import { repositoryPath } from '../sarif-artifact.js';
import { exitOnSignals } from '../signals.js';
import { invocation } from '../invocation.js';
import { flagsAfterCommandHint, parseEnv } from '../target-args.js';
import type { ServerOptions } from '../../library/server-options.js';
import type { LockFormat } from '../../../reports/lock-diff.js';
import type { ToolLock } from '../../lock/lock-file.js';

/** lock's own words when no server is given: the example names lock. */
const LOCK_SPELLING = {
  ...CLI_SPELLING,
  noServer: 'give the command that starts it (mcp-pd-check lock -- node server.js) or --url http://host/mcp',
};

interface LockFlags {
  out: string;
  check?: string | true;
  update: boolean;
  format: LockFormat;
  output?: string;
  report: string[];
  serverConfig?: string;
  server: string[];
  env?: string[];
}

export function lockCommand(): Command {
  return withOptions(
    new Command('lock')
      .description(
        "Write a server's tool surface to a lock file, or check the server against it (--check): every change to what the model reads is seen in review.",
      )
      .argument('[command...]', 'the command that starts the server (stdio)'),
    'lock',
  )
    .passThroughOptions()
    .addHelpText('after', LOCK_HELP)
    .action(async (words: string[], flags: LockFlags) => {
      process.exitCode = await runLock(words, flags);
    });
}

async function runLock(words: string[], flags: LockFlags): Promise<number> {
  exitOnSignals();
  const out = new CliOutput();
  const misplaced = flagsAfterCommandHint(words, process.argv.slice(2), 'lock');
  if (misplaced) out.say(`${TOOL_NAME} lock: ${misplaced}\n`);
  const [{ lockServer, readLockFile, compareLock }, { renderLockDiff }, { redactorForServer }] = await Promise.all([
    import('../../library/lock-server.js'),
    import('../../../reports/lock-diff.js'),
    import('../../library/server-target.js'),
  ]);
  // --check takes an optional file: a lock file given after other flags is read as the server command instead.
  if (flags.check === true && /\.json$/i.test(words[0] ?? '')) {
    throw new InputError(
      `'${words[0]}' was read as the server command: give the lock file right after --check (--check ${words[0]}), then the server after --`,
    );
  }
  const options = await serverOptions(words, flags);
  out.redactor = redactorForServer(options);
  const comparing = flags.check !== undefined || flags.update;
  const file = typeof flags.check === 'string' ? flags.check : flags.out;
  checkOutputPaths(flags);
  const { LOCK_FORMATS } = await import('../../../reports/lock-diff.js');
  const extra = reportTargets(flags);
  const unknown = extra.find(([format]) => !(LOCK_FORMATS as readonly string[]).includes(format));
  if (unknown) throw new InputError(`--report ${unknown[0]}=…: lock --check writes ${LOCK_FORMATS.join(', ')}`);
  // The lock is read before the server starts: a missing or broken file costs nothing. --update may write the first
  // one.
  const locked = comparing && !(flags.update && !existsSync(file)) ? readLockFile(file, LOCK_SPELLING) : undefined;
  // A plain lock never replaces a lock that says otherwise without a word: that is --update's job.
  const existing = !comparing && existsSync(file) ? readExistingLock(file, readLockFile) : undefined;
  let outcome;
  try {
    outcome = await lockServer(options, LOCK_SPELLING);
  } catch (err) {
    if (!(err instanceof TargetUnavailableError)) throw err;
    out.say(`${TOOL_NAME}: cannot read '${err.target ?? 'the server'}': ${err.message}\n`);
    return EXIT.unreachable;
  }
  for (const u of outcome.unread)
    out.say(
      `${TOOL_NAME} lock: warning: the full description of '${u.tool}' (${u.era}) could not be read (${u.why}): locked without it\n`,
    );
  const text = out.mask(outcome.text);
  if (existing) {
    const diff = compareLock(existing.lock, outcome.lock);
    if (diff.same) {
      out.say(`${TOOL_NAME} lock: ${file} is up to date: nothing written\n`);
      return EXIT.ok;
    }
    throw new InputError(
      `${file} holds a lock that differs from the server now (${diff.server ? 'another server name' : `${diff.changes.length} change${diff.changes.length === 1 ? '' : 's'}`}): nothing written; --check ${file} shows the changes, --update rewrites it`,
    );
  }
  if (!locked) {
    writeFileSync(file, text);
    // The full descriptions' total is of the tools read (the tool form is the resource itself, not read): said so
    // when fewer, since pd-token-savings counts the tool form's too.
    const eras = Object.entries(outcome.lock.eras).map(([era, s]) => {
      const read = Object.values(s!.tools).filter((t) => t?.full).length;
      const of = read < s!.totals.tools ? ` (of ${read} of the ${s!.totals.tools} tools; a tool form is not read)` : '';
      return `${era}: ${s!.totals.tools} tools, tools/list ${formatNumber(s!.totals.listedTokens)} tokens${s!.totals.fullTokens !== undefined ? `, full descriptions ${formatNumber(s!.totals.fullTokens)}${of}` : ''}`;
    });
    out.say(`${TOOL_NAME} lock: wrote ${file} (${eras.join('; ')})\n`);
    return EXIT.ok;
  }
  const diff = compareLock(locked.lock, outcome.lock);
  const hint = { command: invocation().shell, updating: flags.update };
  const render = (format: LockFormat) =>
    out.mask(renderLockDiff(diff, format, repositoryPath(file), locked.text, hint));
  for (const [format, target] of extra) writeFileSync(target, render(format as LockFormat));
  const report = render(flags.format);
  if (flags.output) writeFileSync(flags.output, report);
  else process.stdout.write(report);
  if (flags.update) {
    // A lock of another server is not rewritten with this one's surface: the wrong file was given, most likely.
    if (diff.server)
      throw new InputError(
        `${file} is the lock of the server ${diff.server.locked ? `'${diff.server.locked}'` : 'without a name'}, not of ${diff.server.now ? `'${diff.server.now}'` : 'this one'}: not rewritten; give this server's own lock file (or remove ${file} and lock it anew)`,
      );
    if (!diff.same) writeFileSync(file, text);
    out.say(
      `${TOOL_NAME} lock: ${diff.same ? `${file} is up to date` : `rewrote ${file}: commit it with the change`}\n`,
    );
    return EXIT.ok;
  }
  return diff.same ? EXIT.ok : EXIT.failures;
}

/** The lock file a plain lock would replace; a file that is no lock is not replaced either. */
function readExistingLock(
  file: string,
  read: (file: string, spell: typeof LOCK_SPELLING) => { lock: ToolLock; text: string },
): { lock: ToolLock; text: string } {
  try {
    return read(file, LOCK_SPELLING);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    throw new InputError(
      `${file} exists and is not a lock file this version reads (${err.message}): nothing written; give another --out, or remove it`,
    );
  }
}

/** The server to lock: from the command line, or the one server of --server-config (--server picks it). */
async function serverOptions(words: string[], flags: LockFlags): Promise<ServerOptions> {
  const given = libraryOptions(flags as unknown as Flags, 'lock', words) as ServerOptions;
  if (!flags.serverConfig) return given;
  if (words.length || given.url !== undefined)
    throw new InputError('give either a server command, --url or --server-config, not more than one');
  const { readServerConfig } = await import('../../library/server-config.js');
  const config = readServerConfig(flags.serverConfig, flags.server, parseEnv(flags.env ?? []));
  if (config.servers.length !== 1) {
    throw new InputError(
      `a lock file holds one server, and ${config.file} has ${config.servers.length}: pick one with --server NAME (${config.servers.map((s) => s.name).join(', ')}), one lock file each (--out)`,
    );
  }
  const [server] = config.servers;
  if (server.problem !== undefined)
    throw new InputError(`server '${server.name}' in ${config.file}: ${server.problem}`);
  return {
    ...server.options,
    ...(given.timeoutMs !== undefined ? { timeoutMs: given.timeoutMs } : {}),
    ...(given.startupTimeoutMs !== undefined ? { startupTimeoutMs: given.startupTimeoutMs } : {}),
    ...(given.protocol ? { protocol: given.protocol } : {}),
  };
}
