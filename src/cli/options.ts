// The flags of every command, built from the one option table (src/library/option-table.ts): the
// commander options, what the flags become in the library's options, and how the library's
// errors name options here (as flags).
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { Spelling } from '../library/server-options.js';
import { attributeOf, OPTIONS, optionFor, type CommandName, type OptionSpec } from '../library/option-table.js';
import type { FailOn } from '../core/exit-codes.js';
import { parseEnv, parseHeaders } from './target-args.js';
import { parseRules } from '../library/check-levels.js';
import { asText } from '../util/text.js';

export { DEFAULT_BASELINE, DEFAULT_CONFIG } from '../library/option-table.js';

/** Flags of a report: live runs and lint (after defaults: these the CLI uses itself). */
export interface OutputFlags {
  config?: string;
  format: string;
  output?: string;
  report: string[];
  only: string[];
  skip: string[];
  baseline?: string;
  updateBaseline: boolean;
  quiet: boolean;
  failOn: FailOn;
  minScore?: number;
  badge?: string;
  color: boolean;
  verbose: boolean;
}

/** Flags as commander gives them: by attribute name, undefined where not given and the library decides. */
export type Flags = Record<string, unknown>;

/** The library's errors name options as the flags that set them. */
export const CLI_SPELLING: Spelling = {
  option: (key) =>
    key === 'command'
      ? 'a server command'
      : (optionFor(key)?.flag.split(' ')[0] ?? `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`),
  noServer: 'give the command that starts it (mcp-pd-check -- node server.js) or --url http://host/mcp',
};

export function integer(min: number, max: number, words: readonly string[] = []) {
  return (value: string): number | string => {
    if (words.includes(value.trim())) return value.trim();
    const n = Number(value);
    // A port given with its address (127.0.0.1:3000): the address has a flag of its own.
    const hostPort = max === 65_535 ? /^(\[[^\]]+\]|[^:\s]+):(\d+)$/.exec(value.trim()) : null;
    if (hostPort)
      throw new InvalidArgumentError(
        `expected a port alone: give --listen ${hostPort[2]} --host ${hostPort[1].replace(/^\[|\]$/g, '')}`,
      );
    if (!/^\d+$/.test(value.trim()) || n < min || n > max)
      throw new InvalidArgumentError(
        `expected a whole number from ${min} to ${max}${words.length ? ` or ${words.join(', ')}` : ''}`,
      );
    return n;
  };
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The table's options of one command, as commander options. */
export function withOptions(command: Command, name: CommandName): Command {
  for (const spec of OPTIONS.filter((o) => o.commands.includes(name))) command.addOption(commanderOption(spec, name));
  return command;
}

/**
 * A commander option from its row. Options the library takes get no commander default: unset,
 * they stay undefined and the library applies the table's default (--help still says it). The
 * CLI's own options (format, colour…) get theirs here.
 */
function commanderOption(spec: OptionSpec, name: CommandName): Option {
  const flags = spec.short ? `${spec.short}, ${spec.flag}` : spec.flag;
  const shown =
    spec.defaultText ??
    (spec.library !== undefined &&
    spec.default !== undefined &&
    spec.kind !== 'boolean' &&
    !(Array.isArray(spec.default) && !spec.default.length)
      ? asText(spec.default)
      : undefined);
  const option = new Option(
    flags,
    (spec.helpFor?.[name] ?? spec.help) + (shown !== undefined ? ` (default: ${shown})` : ''),
  );
  if (spec.kind === 'integer')
    option.argParser(integer(spec.min ?? 0, spec.max ?? Number.MAX_SAFE_INTEGER, spec.words));
  if (spec.kind === 'choice' || spec.kind === 'choices') option.choices([...spec.choices!]);
  if (spec.repeat) option.argParser(collect);
  if (spec.library === undefined && spec.default !== undefined) option.default(spec.default);
  return option;
}

/** What the flags of a command say, as the library's options (`command`: the server command's words). */
export function libraryOptions(flags: Flags, name: CommandName, words: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = words.length ? { command: words } : {};
  for (const spec of OPTIONS.filter((o) => o.library !== undefined && o.commands.includes(name))) {
    const value = flags[attributeOf(spec)];
    if (value === undefined) continue;
    out[spec.library!] =
      spec.library === 'env'
        ? parseEnv(value as string[])
        : spec.library === 'rules'
          ? parseRules(value as string[])
          : spec.library === 'headers'
            ? parseHeaders(value as string[])
            : spec.scale !== undefined
              ? (value as number) * spec.scale
              : value;
  }
  return out;
}

/** The table's default for a flag the CLI itself uses after the library (e.g. --fail-on for the exit code). */
export function flagOrDefault<T>(flags: Flags, flag: string): T {
  const spec = OPTIONS.find((o) => o.flag.split(' ')[0] === flag)!;
  return (flags[attributeOf(spec)] ?? spec.default) as T;
}
