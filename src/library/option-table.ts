// Every option, once: its flag, its key in the library and in mcp-pd-check.config.json, its type,
// its default and its help. The CLI builds its commander options, its config-file mapping and the
// way errors name options from this table; the library resolves defaults from it, and nowhere else.
import { DEFAULT_EXPLORE, DEFAULT_IDLE_SECONDS } from '../model/explore/defaults.js';
import { DEFAULT_SESSIONS } from '../run/session-plan.js';
import { DEFAULT_MAX_MESSAGE_MB, DEFAULT_STARTUP_TIMEOUT_MS } from '../transport/limits.js';

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

const LIVE: CommandName[] = ['check'];
const SERVER: CommandName[] = ['check', 'init', 'lock'];
const REPORT: CommandName[] = ['check', 'lint'];
/** What a report looks like: also for merge, which writes a fleet's report from its shards'. */
const RENDER: CommandName[] = [...REPORT, 'merge'];

const lines = (sep: string) => (value: unknown) =>
  Object.entries(value as Record<string, string>).map(([k, v]) => `${k}${sep}${v}`);

export const FORMAT_NAMES = ['text', 'json', 'junit', 'sarif', 'github', 'markdown', 'html'] as const;
export const DEFAULT_TIMEOUT_MS = 5000;
export const DEFAULT_MAX_DURATION_MS = 600_000;
export const DEFAULT_CONFIG = 'mcp-pd-check.config.json';
export const DEFAULT_BASELINE = 'mcp-pd-check.baseline.json';

export const OPTIONS: readonly OptionSpec[] = [
  // How a server is reached.
  {
    flag: '--url <url>',
    kind: 'text',
    library: 'url',
    config: 'url',
    commands: [...SERVER, 'serve'],
    help: 'check a Streamable HTTP server at this URL instead of starting a command',
    helpFor: {
      init: 'read a Streamable HTTP server at this URL instead of starting a command',
      serve: 'an upstream server over Streamable HTTP instead of a command',
    },
  },
  {
    flag: '--protocol <version>',
    kind: 'choice',
    choices: ['all', '2025-11-25', '2026-07-28'],
    library: 'protocol',
    config: 'protocol',
    commands: [...SERVER, 'serve'],
    default: 'all',
    help: 'protocol era to speak: all checks every era the server speaks, each on its own; 2025-11-25 (initialize, sessions) or 2026-07-28 (server/discover, a _meta envelope on every request, no session) checks only that one',
    helpFor: {
      init: 'protocol era to read the server in: all (default) takes the first it speaks, 2025-11-25 first',
      serve:
        'protocol era to speak to the upstream: all (default) takes the first it speaks, 2025-11-25 first (clients of either era are served)',
    },
  },
  {
    flag: '--transport <transport>',
    kind: 'choice',
    choices: ['auto', 'streamable-http', 'sse'],
    library: 'transport',
    config: 'transport',
    commands: SERVER,
    default: 'auto',
    help: 'HTTP transport for --url: auto tries Streamable HTTP, then the older HTTP+SSE (2024-11-05) on a 4xx',
  },
  {
    flag: '--header <Name: value>',
    kind: 'text',
    repeat: true,
    library: 'headers',
    config: 'headers',
    fromConfig: lines(': '),
    commands: [...SERVER, 'serve'],
    help: 'HTTP header for --url, repeatable; $VAR is read from the environment; never reported',
  },
  {
    flag: '--cwd <dir>',
    kind: 'text',
    library: 'cwd',
    config: 'cwd',
    path: true,
    commands: [...SERVER, 'serve'],
    help: 'working directory for the server command',
  },
  {
    flag: '--env <KEY=VALUE|KEY>',
    kind: 'text',
    repeat: true,
    library: 'env',
    config: 'env',
    fromConfig: lines('='),
    commands: SERVER,
    help: "environment variable for the server; KEY alone passes the checker's own value through (repeatable)",
  },
  {
    flag: '--inherit-env',
    kind: 'boolean',
    library: 'inheritEnv',
    config: 'inheritEnv',
    commands: SERVER,
    default: false,
    help: "give the server the checker's whole environment (risky: CI secrets reach the server; by default it gets only HOME, LOGNAME, PATH, SHELL, TERM, USER and --env)",
  },
  {
    flag: '--timeout <ms>',
    kind: 'integer',
    min: 1,
    max: 600_000,
    library: 'timeoutMs',
    config: 'timeoutMs',
    commands: SERVER,
    default: DEFAULT_TIMEOUT_MS,
    help: 'time limit for every request',
  },
  {
    flag: '--startup-timeout <ms>',
    kind: 'integer',
    min: 1,
    max: 3_600_000,
    library: 'startupTimeoutMs',
    config: 'startupTimeoutMs',
    commands: SERVER,
    default: DEFAULT_STARTUP_TIMEOUT_MS,
    defaultText: `${DEFAULT_STARTUP_TIMEOUT_MS} for a server command; --timeout for --url`,
    help: 'time a server gets to start and answer initialize (a cold npx -y, uvx or JVM takes seconds); once it says anything, --timeout applies. For --url, one budget for the whole connection attempt, whatever transports are tried',
  },
  // A live run.
  {
    flag: '--sessions <n>',
    kind: 'integer',
    min: 2,
    max: 256,
    library: 'sessions',
    config: 'sessions',
    commands: LIVE,
    defaultText: `${DEFAULT_SESSIONS.stdio} over stdio: each is a process; ${DEFAULT_SESSIONS.http} over HTTP: sessions are cheap and races need company`,
    help: 'parallel sessions of the session-isolation check',
  },
  {
    flag: '--max-duration <s>',
    kind: 'integer',
    min: 1,
    max: 86_400,
    library: 'maxDurationMs',
    scale: 1000,
    config: 'maxDuration',
    commands: LIVE,
    default: DEFAULT_MAX_DURATION_MS / 1000,
    help: 'time limit of the whole run in seconds; checks not finished by then are errors',
  },
  {
    flag: '--max-response <MB>',
    kind: 'integer',
    min: 1,
    max: 1024,
    library: 'maxResponseMb',
    config: 'maxResponse',
    commands: LIVE,
    default: DEFAULT_MAX_MESSAGE_MB,
    help: 'largest message accepted from the server; a larger one ends its session',
  },
  {
    flag: '--safe-calls',
    kind: 'boolean',
    library: 'safeCalls',
    config: 'safeCalls',
    commands: LIVE,
    default: false,
    help: 'call only tools marked read-only (annotations.readOnlyHint)',
  },
  {
    flag: '--safe-tool <name>',
    kind: 'text',
    repeat: true,
    library: 'safeTools',
    config: 'safeTools',
    commands: LIVE,
    default: [],
    help: 'a tool that is safe to call as a read-only tool would be (before any fetch, and with the examples of its description), though it is not marked read-only: such a call tells a server that never gates from one that shares grants between sessions (repeatable; destructiveHint: true still wins)',
  },
  {
    flag: '--allow-destructive',
    kind: 'boolean',
    library: 'allowDestructive',
    config: 'allowDestructive',
    commands: LIVE,
    default: false,
    help: 'give tools annotated destructiveHint their example arguments (by default they are not called, and other tools that are not read-only get only arguments their schema refuses)',
  },
  {
    flag: '--cards <dir>',
    kind: 'text',
    library: 'cards',
    config: 'cards',
    path: true,
    commands: LIVE,
    help: 'a folder of Tool Card files (<tool>.json) to compare with the live tools: a card per listed tool, none for an unlisted one, no schema drift (over stdio or HTTP)',
  },
  {
    flag: '--explore <requests>',
    kind: 'integer',
    min: 0,
    max: 100_000,
    library: 'explore',
    config: 'explore',
    commands: LIVE,
    default: DEFAULT_EXPLORE,
    help: 'requests the model-based exploration may send: generated sequences over sessions of its own, judged by the model, a divergence shrunk to its shortest sequence (0: off)',
  },
  {
    flag: '--idle <seconds>',
    kind: 'integer',
    min: 0,
    max: 600,
    library: 'idleSeconds',
    config: 'idle',
    commands: LIVE,
    default: DEFAULT_IDLE_SECONDS,
    help: "the least time the exploration's idle session waits after a fetch before it calls the tool again: a grant must outlast idleness (§5.1: for the lifetime of the session), so a fixed window proves it on a fast machine as on a slow one. It waits while the rest of the run goes on; only what exceeds the run is added (0: the run's own length)",
  },
  {
    flag: '--seed <n|random>',
    kind: 'integer',
    min: 0,
    max: 2 ** 31 - 1,
    words: ['random'],
    library: 'seed',
    config: 'seed',
    commands: LIVE,
    defaultText: "a digest of the server's tools/list: the same server is explored the same way on every run",
    help: 'seed of the exploration: the report of a run gives the one it used, and the same seed replays it exactly; random explores differently every run (nightly runs)',
  },
  {
    flag: '--max-tokens <n>',
    kind: 'integer',
    min: 0,
    max: 100_000_000,
    library: 'maxTokens',
    config: 'maxTokens',
    commands: LIVE,
    help: 'fail the run when tools/list costs more than this many tokens (o200k_base, every listed definition): a budget CI holds a server to',
  },
  {
    flag: '--max-tools <n>',
    kind: 'integer',
    min: 0,
    max: 100_000,
    library: 'maxTools',
    config: 'maxTools',
    commands: LIVE,
    help: 'fail the run when the server lists more tools than this',
  },
  {
    flag: '--require <extensions...>',
    kind: 'choices',
    choices: ['dashdash', 'toolcards'],
    library: 'require',
    config: 'require',
    commands: LIVE,
    default: [],
    help: 'fail instead of skip when an optional extension is missing',
  },
  {
    flag: '--server-config <file>',
    kind: 'text',
    commands: [...LIVE, 'lock'],
    help: 'check the servers written in a config file: claude_desktop_config.json, .cursor/mcp.json, .mcp.json (mcpServers), .vscode/mcp.json (servers), a registry server.json, or a registry list (the {"servers": [...]} the registry API returns, each entry run as its package or remote allows); $VAR, ${VAR}, ${env:VAR} from the environment, ${input:ID} from --env ID=VALUE',
  },
  {
    flag: '--server <name>',
    kind: 'text',
    repeat: true,
    commands: [...LIVE, 'lock'],
    default: [],
    help: 'with --server-config: only this server (repeatable)',
  },
  {
    flag: '--jobs <n>',
    kind: 'integer',
    min: 1,
    max: 32,
    commands: LIVE,
    default: 1,
    help: 'with --server-config: servers checked at the same time',
  },
  // A sweep larger than one machine (docs/ci-sweep.md).
  {
    flag: '--shard <k/n>',
    kind: 'text',
    commands: LIVE,
    help: "with --server-config: check only shard k of n (one job of a CI matrix each; mcp-pd-check merge joins their JSON reports). A server's shard depends on its name alone, so adding a server moves no other; the report records k/n and the fleet's size and digest",
  },
  {
    flag: '--out-dir <dir>',
    kind: 'text',
    commands: LIVE,
    help: "with --server-config: write each server's JSON report to DIR as soon as it is done (a whole file, then renamed), so that a job killed at its time limit keeps every server it finished",
  },
  {
    flag: '--resume',
    kind: 'boolean',
    commands: LIVE,
    default: false,
    help: 'with --out-dir: skip the servers already reported in DIR (their reports join this one), so a rerun checks only the rest; a file that is not a whole report of this fleet is not trusted and its server is checked again',
  },
  {
    flag: '--explain-plan',
    kind: 'boolean',
    commands: LIVE,
    default: false,
    help: 'print which sessions (server processes over stdio) the selected checks will open, in what order and why, then exit without starting anything',
  },
  // init.
  { flag: '--out <dir>', kind: 'text', library: 'out', commands: ['init'], default: '.', help: 'folder to write into' },
  {
    flag: '--force',
    kind: 'boolean',
    library: 'force',
    commands: ['init'],
    default: false,
    help: 'overwrite files that exist (by default they are kept)',
  },
  {
    flag: '--from <file>',
    kind: 'text',
    library: 'from',
    commands: ['init'],
    help: 'read a saved tools/list result instead of a server (offline)',
  },
  // lock.
  {
    flag: '--out <file>',
    kind: 'text',
    commands: ['lock'],
    default: 'mcp-tools.lock.json',
    help: 'the lock file to write',
  },
  {
    flag: '--check [file]',
    kind: 'text',
    commands: ['lock'],
    help: "compare the server with a lock file (default: --out's) instead of writing one: exit 0 when its tool surface is as locked, 1 when a tool was added, removed or changed",
  },
  {
    flag: '--update',
    kind: 'boolean',
    commands: ['lock'],
    default: false,
    help: 'with --check: say what changed, then rewrite the lock file (exit 0)',
  },
  {
    flag: '--format <format>',
    short: '-f',
    kind: 'choice',
    choices: ['text', 'json', 'markdown', 'github'],
    commands: ['lock'],
    default: 'text',
    help: "how --check says what changed: markdown for a pull-request comment or the step summary, github for annotations on the lock file's lines",
  },
  // serve.
  {
    flag: '--descriptions <dir>',
    kind: 'text',
    library: 'descriptions',
    commands: ['serve'],
    defaultText: "derived from the upstream's own tools/list",
    help: 'the folder init wrote (tool_descriptions/, tools-list.minimal.json)',
  },
  {
    flag: '--listen <port>',
    kind: 'integer',
    min: 0,
    max: 65_535,
    library: 'listen',
    commands: ['serve'],
    help: 'serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (0: any free port)',
  },
  {
    flag: '--host <address>',
    kind: 'text',
    library: 'host',
    commands: ['serve'],
    default: '127.0.0.1',
    help: 'the address --listen binds',
  },
  {
    flag: '--allowed-origin <origin>',
    kind: 'text',
    repeat: true,
    library: 'allowedOrigins',
    commands: ['serve'],
    default: [],
    help: 'an Origin --listen accepts besides its own (DNS rebinding protection, on every address bound), e.g. https://app.example.com; its host is then accepted as Host too; repeatable',
  },
  {
    flag: '--no-descriptions-tool',
    kind: 'boolean',
    library: 'descriptionsTool',
    commands: ['serve'],
    default: true,
    help: `do not offer the tool form of the resource (${'get_tool_descriptions'}): clients whose model only calls tools (VS Code, Claude Desktop, ChatGPT) then cannot fetch a description, and every call there is refused`,
  },
  {
    flag: '--request-timeout <s>',
    kind: 'integer',
    min: 1,
    max: 86_400,
    library: 'requestTimeoutMs',
    scale: 1000,
    commands: ['serve'],
    default: 300,
    help: 'how long a request forwarded to the upstream may wait for its answer; then its client gets an error and the upstream a cancellation',
  },
  {
    flag: '--max-message <MB>',
    kind: 'integer',
    min: 1,
    max: 1024,
    library: 'maxMessageMb',
    commands: ['serve'],
    default: 16,
    help: 'the largest message accepted from a client or from the upstream; a larger one is dropped, a client answered with an error',
  },
  {
    flag: '--max-sessions <n>',
    kind: 'integer',
    min: 1,
    max: 100_000,
    library: 'maxSessions',
    commands: ['serve'],
    default: 256,
    help: 'with --listen: sessions kept at once; past it the session idle longest ends, or a new client gets 503 when every one is in use',
  },
  {
    flag: '--session-idle <s>',
    kind: 'integer',
    min: 1,
    max: 86_400,
    library: 'sessionIdleSeconds',
    commands: ['serve'],
    default: 600,
    help: 'with --listen: a session that sends nothing for this long ends (its grants with it)',
  },
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
