// Every option, once: its flag, its key in the library and in mcp-pd-check.config.json, its type,
// its default and its help. The CLI builds its commander options, its config-file mapping and the
// way errors name options from this table; the library resolves defaults from it, and nowhere else.
import { COMMAND_OPTIONS } from './options-commands.js';
import { REPORT_OPTIONS } from './options-report.js';
import { RUN_OPTIONS } from './options-run.js';
import { SERVER_REACH_OPTIONS } from './options-server.js';
import type { OptionSpec } from './option-spec.js';

export {
  DEFAULT_BASELINE,
  DEFAULT_CONFIG,
  DEFAULT_MAX_DURATION_MS,
  DEFAULT_TIMEOUT_MS,
  FORMAT_NAMES,
  type CommandName,
  type OptionKind,
  type OptionSpec,
} from './option-spec.js';

/** Every option, in the order --help shows them. */
export const OPTIONS: readonly OptionSpec[] = [
  ...SERVER_REACH_OPTIONS,
  ...RUN_OPTIONS,
  ...COMMAND_OPTIONS,
  ...REPORT_OPTIONS,
];

/** The attribute name commander gives a flag: `--max-duration <s>` → maxDuration, `--no-color` → color. */
export function attributeOf(spec: Pick<OptionSpec, 'flag'>): string {
  const long = spec.flag.split(/[ <[]/)[0].replace(/^--(no-)?/, '');
  return long.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The option a library key belongs to. */
export function optionFor(library: string): OptionSpec | undefined {
  return OPTIONS.find((o) => o.library === library);
}

/** The default of a library option, from the table (the one place defaults are written). */
export function defaultOf<T>(library: string): T {
  const spec = optionFor(library);
  return (spec?.scale !== undefined ? (spec.default as number) * spec.scale : spec?.default) as T;
}
