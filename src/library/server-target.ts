import { isDirectory } from '../util/files.js';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PACKAGE_ROOT, TOOL_NAME } from '../util/version.js';
import { parse as shellParse } from 'shell-quote';
import { InputError } from '../core/input-error.js';
import { Redactor } from '../safety/redact.js';
import type { StdioCommand } from '../transport/stdio.js';
import type { Target } from '../transport/target.js';
import { HttpTarget } from '../transport/http-target.js';
import { StdioTarget } from '../transport/stdio-target.js';
import { LIBRARY_SPELLING, type ServerOptions, type Spelling } from './server-options.js';
import { LEGACY_ERA, type Era } from '../transport/era.js';
import { ProcessMeter } from '../transport/process-meter.js';
import { StartSlots } from '../transport/start-slots.js';
import { defaultOf } from './option-table.js';

/** A target ready to start, and the redactor that knows this run's secrets (its headers, its env). */
export interface ServerTarget {
  /** The target in the 2025-11-25 era. */
  target: Target;
  /** The same server, in a given protocol era (each a target of its own; nothing starts until opened). */
  inEra: (era: Era) => Target;
  redactor: Redactor;
  /** The command or URL as reports and errors show it. */
  describe: string;
  /** The start-up allowance in effect (ms): a process's own, or, for a URL, the request limit unless given. */
  startupTimeoutMs: number;
  /** Over stdio: the server processes every era's target started, and their memory. */
  meter?: ProcessMeter;
}

/**
 * The one place a transport is built: checks the options, then makes (but does not start) the
 * stdio or HTTP target. Throws InputError for options that make no sense.
 */
export function serverTarget(options: ServerOptions, spell: Spelling = LIBRARY_SPELLING): ServerTarget {
  const s = spell.option;
  const timeoutMs = options.timeoutMs ?? defaultOf<number>('timeoutMs');
  const limits = { maxMessageBytes: (options.maxResponseMb ?? defaultOf<number>('maxResponseMb')) * 1024 * 1024 };
  const words = commandWords(options.command);
  if (options.url !== undefined) {
    if (words.length)
      throw new InputError(`give either ${s('command')} or ${s('url')}, not both (got ${s('url')} and '${words[0]}')`);
    if (options.cwd !== undefined || Object.keys(options.env ?? {}).length || options.inheritEnv) {
      throw new InputError(
        `${s('cwd')}, ${s('env')} and ${s('inheritEnv')} apply to a server command, not to ${s('url')}`,
      );
    }
    const given = parseUrl(options.url, spell);
    const { url, headers } = withUrlCredentials(given, options.headers ?? {});
    const redactor = Redactor.forRun({ headers, url: given });
    // No process to start behind a URL: its first request gets the request limit unless told otherwise.
    const startup =
      options.startupTimeoutMs !== undefined
        ? { startupTimeoutMs: options.startupTimeoutMs, startupOption: s('startupTimeoutMs') }
        : { startupTimeoutMs: timeoutMs, startupOption: s('timeoutMs') };
    const inEra = (era: Era) =>
      new HttpTarget(url, headers, { timeoutMs, ...startup, limits, redactor, transport: options.transport, era });
    const target = inEra(LEGACY_ERA);
    return { target, inEra, redactor, describe: target.describe, startupTimeoutMs: startup.startupTimeoutMs };
  }
  if (Object.keys(options.headers ?? {}).length) throw new InputError(`${s('headers')} goes with ${s('url')}`);
  if ((options.transport ?? 'auto') !== 'auto')
    throw new InputError(`${s('transport')} goes with ${s('url')} (a server command always speaks stdio)`);
  if (!words.length) throw new InputError(`no server to check: ${spell.noServer}`);
  const env = options.env ?? {};
  const command = {
    ...commandFrom(words, options.cwd !== undefined ? resolve(options.cwd) : undefined, env, spell),
    inheritEnv: options.inheritEnv ?? false,
  };
  const redactor = Redactor.forRun({ serverEnv: env, serverArgs: [command.command, ...command.args] });
  if (options.cwd !== undefined && !isDirectory(options.cwd))
    throw new InputError(`${s('cwd')} '${options.cwd}' is not a directory`);
  const startupTimeoutMs = options.startupTimeoutMs ?? Math.max(timeoutMs, defaultOf<number>('startupTimeoutMs'));
  const meter = new ProcessMeter();
  const startSlots = new StartSlots();
  const inEra = (era: Era) =>
    new StdioTarget(command, {
      timeoutMs,
      startupTimeoutMs,
      startupOption: s('startupTimeoutMs'),
      limits,
      redactor,
      era,
      meter,
      startSlots,
    });
  const target = inEra(LEGACY_ERA);
  return { target, inEra, redactor, describe: target.describe, startupTimeoutMs, meter };
}

/**
 * What a run against these options must mask, known before anything starts (for the messages of
 * the CLI): the server's --env values, its headers and URL credentials, and secrets among its
 * command's arguments (`--api-key X`). The same secrets serverTarget's redactor knows.
 */
export function redactorForServer(
  options: Pick<ServerOptions, 'command' | 'env' | 'headers' | 'url' | 'cwd'>,
): Redactor {
  const words = commandWords(options.command);
  const argv = quotedCommand(words, options.cwd)
    ? [
        ...shellParse(words[0], (key) => process.env[key] ?? '').filter((w): w is string => typeof w === 'string'),
        ...words.slice(1),
      ]
    : words;
  let url: URL | undefined;
  try {
    url = options.url !== undefined ? new URL(options.url) : undefined;
  } catch {
    /* serverTarget says what is wrong with it */
  }
  return Redactor.forRun({
    serverEnv: options.env ?? {},
    headers: options.headers ?? {},
    serverArgs: argv,
    ...(url ? { url } : {}),
  });
}

/** The command option as words: one string stays one word (commandFrom splits it as a shell would). */
export function commandWords(command: readonly string[] | string | undefined): string[] {
  return command === undefined ? [] : typeof command === 'string' ? [command] : [...command];
}

/**
 * The server command from its words: `node server.js --flag`, or one string (`"node server.js
 * --flag"`) split the way a shell would, with $VARS from the environment.
 */
export function commandFrom(
  words: readonly string[],
  cwd: string | undefined,
  env: Record<string, string>,
  spell: Spelling = LIBRARY_SPELLING,
): StdioCommand {
  let argv = [...words];
  if (quotedCommand(words, cwd)) {
    const parsed = shellParse(words[0], (key) => process.env[key] ?? '');
    const operator = parsed.find((p) => typeof p !== 'string');
    if (operator) {
      throw new InputError(
        `the server command contains shell syntax (${JSON.stringify(operator)}); run it through a shell instead: mcp-pd-check -- sh -c '…'`,
      );
    }
    argv = [...(parsed as string[]), ...words.slice(1)];
  }
  if (argv.length === 0 || !argv[0]) throw new InputError(`no server to check: ${spell.noServer}`);
  // `mcp-pd-check serve -- …` (the config init writes) is this very checker, however it was installed.
  if (argv[0] === TOOL_NAME) argv = [...selfCommand(), ...argv.slice(1)];
  return { command: argv[0], args: argv.slice(1), cwd, env };
}

/**
 * Whether the first word is a whole command quoted as one (`"node server.js" --flag`): it holds
 * white space and names no file (a program whose path has a space in it is run as it is).
 */
function quotedCommand(words: readonly string[], cwd?: string): boolean {
  const first = words[0];
  return first !== undefined && /\s/.test(first) && !existsSync(resolve(cwd ?? '.', first));
}

/** How to start this checker's own CLI: the node running now and its CLI file (built, or the one running). */
export function selfCommand(): string[] {
  const cli = [join(PACKAGE_ROOT, 'dist', 'cli', 'cli.js'), process.argv[1] ?? ''].find(
    (f) => /cli\.js$/.test(f) && existsSync(f),
  );
  return cli ? [process.execPath, cli] : [TOOL_NAME];
}

/** An http(s) URL of a Streamable HTTP endpoint. */
export function parseUrl(text: string, spell: Spelling = LIBRARY_SPELLING): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InputError(`${spell.option('url')} '${text}' is not a URL; give e.g. http://127.0.0.1:3000/mcp`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InputError(`${spell.option('url')} must be http:// or https://, got '${url.protocol}'`);
  return url;
}

/**
 * `user:password@` in a URL becomes `Authorization: Basic …`, as curl does: fetch refuses a URL
 * with credentials, and a header is what never follows a redirect elsewhere. An Authorization
 * header given explicitly wins.
 */
export function withUrlCredentials(
  url: URL,
  headers: Record<string, string>,
): { url: URL; headers: Record<string, string> } {
  if (!url.username && !url.password) return { url, headers };
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) return { url: bare, headers };
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const pair = `${decode(url.username)}:${decode(url.password)}`;
  return { url: bare, headers: { ...headers, Authorization: `Basic ${Buffer.from(pair).toString('base64')}` } };
}

export { isDirectory };
