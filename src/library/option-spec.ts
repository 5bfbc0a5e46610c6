import { CONFIG_FILE_NAME } from '../util/version.js';
// What an option of the table is (src/library/option-table.ts): its flag, kind, keys, default and
// help; the command groups the table's parts share, and the defaults other modules name.
/** The commands that take options. */
export type CommandName = 'check' | 'lint' | 'init' | 'serve' | 'lock' | 'merge';

export type OptionKind = 'boolean' | 'integer' | 'text' | 'choice' | 'choices';

export interface OptionSpec {
  /** The flag as a user types it, with its value's name: `--timeout <ms>`. */
  flag: string;
  short?: string;
  kind: OptionKind;
  min?: number;
  max?: number;
  /** Words an integer option also takes (`--seed random`). */
  words?: readonly string[];
  choices?: readonly string[];
  /** Each use adds a value (a list). */
  repeat?: boolean;
  /** Its name in the library's options; `scale` turns the flag's unit into the library's (s → ms). */
  library?: string;
  scale?: number;
  /** Its key in mcp-pd-check.config.json; `path`: a path there, relative to the file. */
  config?: string;
  path?: boolean;
  /**
   * How a config value becomes the flag's (a record of headers → "Name: value" lines); `path` resolves a path in the
   * file.
   */
  fromConfig?: (value: unknown, path: (p: string) => string) => unknown;
  commands: readonly CommandName[];
  /** The value when none is given. The library applies it for its own options; the CLI for the others. */
  default?: unknown;
  /** The default as --help says it, when it is not a plain value. */
  defaultText?: string;
  help: string;
  /** Help for one command, where it differs. */
  helpFor?: Partial<Record<CommandName, string>>;
}

export const LIVE: CommandName[] = ['check'];
export const SERVER: CommandName[] = ['check', 'init', 'lock'];
export const REPORT: CommandName[] = ['check', 'lint'];
/** What a report looks like: also for merge, which writes a fleet's report from its shards'. */
export const RENDER: CommandName[] = [...REPORT, 'merge'];

export const lines = (sep: string) => (value: unknown) =>
  Object.entries(value as Record<string, string>).map(([k, v]) => `${k}${sep}${v}`);

export const FORMAT_NAMES = ['text', 'json', 'junit', 'sarif', 'github', 'markdown', 'html'] as const;
export const DEFAULT_TIMEOUT_MS = 5000;
export const DEFAULT_MAX_DURATION_MS = 600_000;
export const DEFAULT_CONFIG = CONFIG_FILE_NAME;
export const DEFAULT_BASELINE = 'mcp-pd-check.baseline.json';
