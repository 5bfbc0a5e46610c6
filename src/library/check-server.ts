import { resolve } from 'node:path';
import type { LiveCheck } from '../run/check.js';
import type { LiveOptions } from '../run/options.js';
import type { FailOn } from '../core/exit-codes.js';
import { InputError } from '../core/input-error.js';
import { checkEras } from '../run/check-eras.js';
import { weightFields, type CostlyStart, type Heaviness } from '../run/heavy.js';
import type { ProtocolChoice } from '../run/eras.js';
import type { RunHooks } from '../core/hooks.js';
import { DEFAULT_SESSIONS, sessionPlan, sharesSessions, type SessionPlan } from '../run/session-plan.js';
import type { CheckReport, ReportOptions } from '../generated/report.js';
import { explorationSessions } from '../model/explore/explore.js';
import { freshSeed } from '../model/explore/random.js';
import { safeReport } from '../safety/output.js';
import type { Redactor } from '../safety/redact.js';
import { TargetUnavailableError } from '../transport/types.js';
import { LEGACY_ERA, MODERN_ERA } from '../transport/era.js';
import { LIBRARY_SPELLING, type ServerOptions, type Spelling } from './server-options.js';
import { validateOptions } from './validate-options.js';
import { defaultOf } from './option-table.js';
import { isDirectory, serverTarget } from './server-target.js';
import { liveChecksOf } from './check-selection.js';
import type { RuleSetting } from './check-levels.js';
import { loadPlugins, pluginOptions, type PluginSpec } from './plugins.js';

/** Every setting of a live run: the CLI's flags and config file map onto exactly these. */
export interface CheckServerOptions extends ServerOptions {
  /** Parallel sessions of the isolation check (default 3 over stdio, 16 over HTTP). */
  sessions?: number;
  /** Call only tools marked read-only. */
  safeCalls?: boolean;
  /** Tools safe to call as read-only ones are, though not marked read-only (`--safe-tool`). */
  safeTools?: string[];
  /** Give tools annotated destructiveHint their example arguments (default: never called). */
  allowDestructive?: boolean;
  /**
   * A folder of Tool Card files (<tool>.json) to compare with the live tools (relative to the working directory of this
   * process, as every path of the checker is).
   */
  cards?: string;
  /** Fail the run when the server lists more tools than this (`--max-tools`). */
  maxTools?: number;
  /** Fail the run when tools/list costs more tokens than this, o200k_base (`--max-tokens`). */
  maxTokens?: number;
  /** Optional extensions whose absence fails instead of skipping. */
  require?: Array<'dashdash' | 'toolcards'>;
  /** Check ids or prefixes (`pd-`) to run, or to leave out. */
  only?: string[];
  skip?: string[];
  /** Requests the model-based exploration may send (default 60; 0 turns it off). */
  explore?: number;
  /**
   * The least time (s) the exploration's idle session stays idle after a fetch before it calls the tool again (default
   * 2; 0: the run's own length).
   */
  idleSeconds?: number;
  /**
   * Seed of the exploration (default: a digest of each era's tools/list, so the same server is
   * explored the same way on every run; 'random': a new one each run). The report gives it, and it replays the run.
   */
  seed?: number | 'random';
  /** Lowest finding level that fails the run, as recorded in the report (default `error`). */
  failOn?: FailOn;
  /** The least score of what the model reads (0–100) that passes, as recorded in the report (`exitCodeFor` takes it). */
  minScore?: number;
  /** Time limit of the whole run, ms (default 600,000): checks not finished by then are errors. */
  maxDurationMs?: number;
  /** The checks to choose from (default: every live check, `LIVE_CHECKS`). */
  checks?: readonly LiveCheck[];
  /**
   * Plugins (docs/plugins.md): module paths (relative to the working directory), package names
   * (resolved from it), or plugin objects. Their checks run beside ours. prepareCheck and planCheck
   * take them loaded (loadPlugins); checkServer loads them.
   */
  plugins?: PluginSpec[];
  /** The level of each check by id, ours and the plugins' alike: off (not run), warn or error. */
  rules?: Record<string, RuleSetting>;
  /** Told of progress (a progress line); never used to decide anything. */
  hooks?: RunHooks;
}

export { DEFAULT_MAX_DURATION_MS } from './option-table.js';

/** A live run, checked and ready: what it will check, and how its output is masked. */
export interface PreparedCheck {
  describe: string;
  redactor: Redactor;
  checks: readonly LiveCheck[];
  /** The sessions of the isolation check, resolved for the transport. */
  sessions: number;
  run(): Promise<CheckReport>;
}

/**
 * Runs the live checks against a server and returns the report, secrets masked as in every CLI
 * output. Throws TargetUnavailableError when the server cannot be started or reached, and
 * InputError for options that make no sense (no command and no URL, an unknown check id…).
 */
export async function checkServer(options: CheckServerOptions): Promise<CheckReport> {
  return prepareCheck({ ...options, plugins: await loadPlugins(options.plugins) }).run();
}

/** Checks every option and builds the target (nothing starts until `run`). */
export function prepareCheck(options: CheckServerOptions, spell: Spelling = LIBRARY_SPELLING): PreparedCheck {
  validateOptions(options, 'check', spell);
  const checks = liveChecksOf(options);
  const s = spell.option;
  if (options.cards !== undefined && !isDirectory(options.cards)) {
    throw new InputError(
      `${s('cards')} '${options.cards}' is not a folder (give the folder that holds <tool>.json Tool Cards, e.g. .well-known/mcp-tools)`,
    );
  }
  if (options.url === undefined && options.require?.includes('toolcards') && options.cards === undefined) {
    throw new InputError(
      `${s('require')} toolcards needs ${s('url')} (Tool Cards served at /.well-known/mcp-tools/) or ${s('cards')} DIR (card files to compare with the live tools)`,
    );
  }
  const { target, inEra, redactor, describe, startupTimeoutMs, meter } = serverTarget(options, spell);
  // The older HTTP+SSE transport is of 2024: asked for, it checks 2025-11-25 alone (2026-07-28 has none).
  const sseOnly = options.transport === 'sse';
  if (sseOnly && options.protocol === MODERN_ERA)
    throw new InputError(
      `${s('transport')} sse is the 2024-11-05 HTTP+SSE transport, and ${MODERN_ERA} is spoken over Streamable HTTP only: give ${s('transport')} streamable-http (or leave it out) for ${MODERN_ERA}`,
    );
  const protocol = sseOnly ? LEGACY_ERA : (options.protocol ?? defaultOf<ProtocolChoice>('protocol'));
  const sessions = options.sessions ?? DEFAULT_SESSIONS[target.kind === 'http' ? 'http' : 'stdio'];
  // Every default is the option table's, applied here once.
  const timeoutMs = options.timeoutMs ?? defaultOf<number>('timeoutMs');
  const explore = options.explore ?? defaultOf<number>('explore');
  // Derived from what the server lists unless given (DESIGN, "The same verdict every run").
  const seed = options.seed === 'random' ? freshSeed() : options.seed;
  const seedFrom =
    options.seed === 'random'
      ? ('random' as const)
      : options.seed !== undefined
        ? ('given' as const)
        : ('listing' as const);
  const live: LiveOptions = {
    timeoutMs,
    sessions,
    safeCalls: options.safeCalls ?? defaultOf<boolean>('safeCalls'),
    allowDestructive: options.allowDestructive ?? defaultOf<boolean>('allowDestructive'),
    require: options.require ?? defaultOf<LiveOptions['require']>('require'),
    explore,
    ...(seed !== undefined ? { seed } : {}),
    seedFrom,
    safeTools: options.safeTools ?? defaultOf<string[]>('safeTools'),
    idleMs: 1000 * (options.idleSeconds ?? defaultOf<number>('idleSeconds')),
    ...(options.cards !== undefined ? { cardsDir: resolve(options.cards) } : {}),
    ...(options.maxTools !== undefined ? { maxTools: options.maxTools } : {}),
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
  };
  const reportOptions: ReportOptions = {
    timeoutMs,
    startupTimeoutMs,
    sessions,
    safeCalls: live.safeCalls,
    ...(live.safeTools?.length ? { safeTools: [...live.safeTools] } : {}),
    ...(live.maxTools !== undefined ? { maxTools: live.maxTools } : {}),
    ...(live.maxTokens !== undefined ? { maxTokens: live.maxTokens } : {}),
    allowDestructive: live.allowDestructive,
    failOn: options.failOn ?? defaultOf<FailOn>('failOn'),
    ...(options.minScore !== undefined ? { minScore: options.minScore } : {}),
    explore,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...pluginOptions(options),
  };
  return {
    describe,
    redactor,
    checks,
    sessions,
    async run() {
      let heavy: Heaviness | undefined;
      let costly: CostlyStart | undefined;
      const report = await checkEras(inEra, protocol, live, {
        checks,
        hooks: options.hooks,
        reportOptions,
        onHeavy: (why) => (heavy = why),
        onCostlyStart: (cost) => (costly = cost),
        maxDurationMs: options.maxDurationMs ?? defaultOf<number>('maxDurationMs'),
        ...(sseOnly
          ? { leftOutBecause: `${s('transport')} sse: ${MODERN_ERA} has no HTTP+SSE transport (Streamable HTTP only)` }
          : {}),
      }).catch((err: unknown) => {
        if (err instanceof TargetUnavailableError) err.target = describe;
        throw err;
      });
      // Over stdio, what the run cost in server processes (all ended by now).
      return safeReport(
        meter ? { ...report, cost: { ...meter.cost(), ...weightFields(heavy, costly) } } : report,
        redactor,
      );
    },
  };
}

/** The sessions a run would open, in order and why, without starting anything (`--explain-plan`). */
export function planCheck(
  options: Pick<
    CheckServerOptions,
    'url' | 'sessions' | 'explore' | 'idleSeconds' | 'checks' | 'only' | 'skip' | 'plugins' | 'rules'
  >,
): SessionPlan {
  const checks = liveChecksOf(options);
  const transport = options.url !== undefined ? 'http' : 'stdio';
  const budget = options.explore ?? defaultOf<number>('explore');
  // The first era's (the one with the idle session, when there is one).
  const idleMs = 1000 * (options.idleSeconds ?? defaultOf<number>('idleSeconds'));
  const sessions = options.sessions ?? DEFAULT_SESSIONS[transport];
  const explore =
    budget > 0 && checks.some((c) => c.spec.criterion !== undefined)
      ? explorationSessions(
          transport === 'http' ? 'cheap' : 'process',
          budget,
          true,
          sharesSessions(transport, sessions),
        ).total
      : 0;
  return sessionPlan(checks, { sessions, transport, explore, ...(explore ? { idleSeconds: idleMs / 1000 } : {}) });
}
