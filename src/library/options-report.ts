// What a report looks like, where it goes, and what fails the gate.
// Part of the one table of options (src/library/option-table.ts).
import { resolve } from 'node:path';
import { REPORT, RENDER, FORMAT_NAMES, DEFAULT_CONFIG, DEFAULT_BASELINE, type OptionSpec } from './option-spec.js';

export const REPORT_OPTIONS: readonly OptionSpec[] = [
  // A report.
  {
    flag: '--config <file>',
    kind: 'text',
    commands: REPORT,
    help: `settings file (default: ${DEFAULT_CONFIG} in the working directory, if there is one)`,
  },
  {
    flag: '--format <format>',
    short: '-f',
    kind: 'choice',
    choices: FORMAT_NAMES,
    config: 'format',
    commands: RENDER,
    default: 'text',
    help: 'report format',
  },
  {
    flag: '--output <file>',
    short: '-o',
    kind: 'text',
    config: 'output',
    path: true,
    commands: [...RENDER, 'lock'],
    help: 'write the report to a file instead of stdout',
  },
  {
    flag: '--report <format=file>',
    kind: 'text',
    repeat: true,
    config: 'reports',
    fromConfig: (v, path) => Object.entries(v as Record<string, string>).map(([k, f]) => `${k}=${path(f)}`),
    commands: [...RENDER, 'lock'],
    default: [],
    help: `also write a report in another format, e.g. junit=out.xml (repeatable; ${FORMAT_NAMES.join(', ')})`,
    helpFor: {
      lock: 'with --check: also write what changed in another format, e.g. markdown=summary.md (repeatable; text, json, markdown, github)',
    },
  },
  {
    flag: '--baseline <file>',
    kind: 'text',
    config: 'baseline',
    path: true,
    commands: REPORT,
    help: 'accepted findings: reported, but they do not fail the run; fixed ones are reported as stale',
  },
  {
    flag: '--update-baseline',
    kind: 'boolean',
    commands: REPORT,
    default: false,
    help: `write this run's findings to the --baseline file (default ${DEFAULT_BASELINE})`,
  },
  // Plugins and the user's levels (docs/plugins.md).
  {
    flag: '--plugin <module>',
    kind: 'text',
    repeat: true,
    library: 'plugins',
    config: 'plugins',
    // In the config file a path is relative to the file; a package name is resolved from the project.
    fromConfig: (value, path) => (value as string[]).map((p) => (p.startsWith('.') ? resolve(path(p)) : p)),
    commands: REPORT,
    help: 'load a plugin of checks: a path (./my-checks.js) or an installed package name; repeatable (its checks are <plugin>/<id>)',
  },
  {
    flag: '--rule <id=level>',
    kind: 'text',
    repeat: true,
    library: 'rules',
    config: 'rules',
    fromConfig: (value) =>
      Object.entries(value as Record<string, unknown>).map(
        ([id, level]) => `${id}=${typeof level === 'string' ? level : JSON.stringify(level)}`,
      ),
    commands: REPORT,
    help: 'set a check\'s level: off (not run), warn or error, for ours and plugins\' checks alike, or its options as JSON; repeatable (--rule pd-token-savings=off, --rule \'quality/listed-too-long=["warn",{"maxTokens":80}]\')',
  },
  // One value each (comma lists or repeats): a variadic option would swallow the paths after it.
  {
    flag: '--only <ids>',
    kind: 'text',
    repeat: true,
    library: 'only',
    config: 'only',
    commands: REPORT,
    default: [],
    help: 'run only these checks: ids or prefixes such as pd- or dashdash-, comma-separated or repeated',
  },
  {
    flag: '--skip <ids>',
    kind: 'text',
    repeat: true,
    library: 'skip',
    config: 'skip',
    commands: REPORT,
    default: [],
    help: 'do not run these checks (ids or prefixes, comma-separated or repeated)',
  },
  {
    flag: '--fail-on <level>',
    kind: 'choice',
    choices: ['error', 'warning', 'never'],
    library: 'failOn',
    config: 'failOn',
    commands: RENDER,
    default: 'error',
    help: 'lowest finding level that fails the run',
  },
  {
    flag: '--no-color',
    kind: 'boolean',
    commands: RENDER,
    default: true,
    help: 'plain text output (also when NO_COLOR is set or output is not a terminal)',
  },
  {
    flag: '--quiet',
    short: '-q',
    kind: 'boolean',
    commands: REPORT,
    default: false,
    help: 'no progress line on stderr (it is shown only on a terminal anyway)',
  },
  {
    flag: '--verbose',
    short: '-v',
    kind: 'boolean',
    config: 'verbose',
    commands: RENDER,
    default: false,
    help: 'list every finding on its own (by default one code found on many tools is one entry)',
  },
];
