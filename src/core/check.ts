import type {
  CheckResult,
  ClientBudgets,
  FindingLevel,
  SelectionFigures,
  SpecRef,
  TokenFigures,
} from '../generated/report.js';
import { isCode, type Messages } from './messages.js';
import type { Era } from '../transport/era.js';

/** What a check needs from the run: a live session, many sessions, files, or an HTTP target. */
export type CheckNeeds = 'session' | 'sessions' | 'folder' | 'http';

/**
 * The facts of a live run a check reads (src/run/phases.ts produces them, in phases): what the
 * probe learned, the calls made before anything was fetched, the resource and the full
 * descriptions, and — for checks that judge everything — the whole run's traffic. A check runs
 * as soon as what it reads exists, and never before: its order follows from this, not from the
 * registry.
 */
export type Fact = 'discovery' | 'unfetched-calls' | 'descriptions' | 'traffic';

/** Where a check of a plugin comes from (docs/plugins.md). */
export interface PluginOrigin {
  name: string;
  version: string;
  /** The plugin's module, when it was loaded from one (a crash is shown at its own lines). */
  file?: string;
}

/** The spec reference of a check; `requirements` are ids from specs/REQUIREMENTS.md. */
export type CheckSpec = SpecRef & { requirements: string[] };

/** The codes a messages table defines. */
export type Codes<M> = Extract<keyof M, string>;

/** What the session plan depends on: --sessions and which checks run. */
export interface PlanOptions {
  sessions: number;
  /** Ids of the checks selected for this run. */
  selected: readonly string[];
  /**
   * Whether the server marks a tool form of the resource: known once the probe has listed the tools (undefined before).
   */
  toolForm?: boolean;
  /**
   * Whether the checks with a `turn` share one session (P) instead of opening their own: where a
   * session is a server process (stdio) and --sessions is not raised (see `sharesSessions`).
   */
  shared?: boolean;
}

/**
 * A check: its metadata lives here once, and the runner stamps it onto every result.
 * `run` reports through its context (fail/warn/info/skip, by code) and never prints.
 */
export interface CheckDefinition<Ctx, M extends Messages = Messages> {
  /** kebab-case, stable forever, equal to the file name. */
  id: string;
  /** What passing means, in one line. */
  title: string;
  spec: CheckSpec;
  /** The runner skips a check whose needs the target cannot meet (an `http` check over stdio). */
  needs: CheckNeeds;
  /** The protocol eras it applies to (live checks; default: both). In another era it is skipped. */
  eras?: readonly Era[];
  /** The facts of the run it reads (live checks; default: the discovery only). */
  reads?: readonly Fact[];
  /**
   * How many new sessions `run` opens (sessions forced fresh not counted), so the target can start
   * them ahead. A number, or a function of the run's options (e.g. `--sessions`).
   */
  opens?: number | ((options: PlanOptions) => number);
  /** Sessions `run` starts brand new, after others ended (never warmed up ahead); see `opens`. */
  fresh?: number;
  /**
   * Where sessions are shared (PlanOptions.shared: over stdio, each is a server process), `run`'s
   * new session is the run's shared session P, which the checks with a turn take one after the
   * other, lowest turn first, each once the one before has ended; what each leaves in it (its
   * grants) the model knows. Its `opens` and `fresh` then count nothing: P is one session of the run.
   */
  turn?: number;
  /**
   * Which sessions `run` uses and why, in a sentence, for `--explain-plan` (the session plan in
   * docs/DESIGN.md). Without it, the check uses only the probe session.
   */
  sessionUse?: string | ((options: PlanOptions) => string);
  /** Whether `run` calls in the run's clean session (opened once per run, nothing ever fetched in it). */
  clean?: boolean;
  /**
   * Where its proof was made, when `run` itself sends nothing: 'clean' for a check that judges the
   * calls the run made in its clean session before any fetch (the session plan names that session).
   */
  provenIn?: 'clean';
  /**
   * Loads what `run` will need that is slow to load (a tokenizer, schemas). The runner starts it
   * when the run starts, so that it loads while the server starts, off the critical path; with
   * `cheapSessions` (HTTP: the server is one process, and the checker's own thread is what the run
   * waits for) it may load in a thread of its own. `era`: the protocol era the run speaks.
   */
  preload?: (target: { cheapSessions: boolean; era: Era }) => Promise<unknown>;
  /** The token figures the verdict gives, read from this check's own result (only the token check has them). */
  tokenFigures?: (result: CheckResult | undefined) => TokenFigures | undefined;
  /** The selection figures the verdict gives, read from this check's own result (only the selection check has them). */
  selectionFigures?: (result: CheckResult | undefined) => SelectionFigures | undefined;
  /** The client budgets the verdict gives, read from this check's own result (only the budget check has them). */
  clientBudgets?: (result: CheckResult | undefined) => ClientBudgets | undefined;
  /** Every finding code of this check, with its message template and fix hint (stable forever). */
  messages: M;
  run(ctx: Ctx): Promise<void>;
  /** The plugin it comes from (docs/plugins.md); absent for the checks of mcp-pd-check itself. */
  plugin?: PluginOrigin;
  /** The level of its failures set by the user (`rules` in the config), over the spec's word. */
  severity?: FindingLevel;
  /** What the user set for it beside its level (`"rules": { "<id>": ["warn", { … }] }`): a check that takes options reads them. */
  options?: Readonly<Record<string, unknown>>;
  /** The options it takes, each with its default (what the user sets is checked against them). */
  defaults?: Readonly<Record<string, unknown>>;
}

const ID_PATTERN = /^(pd|mcp|dashdash|toolcard|lint)-[a-z0-9]+(-[a-z0-9]+)*$/;

/** Checks a definition's id and codes, and freezes it (the live and lint registries both use this). */
export function defineCheck<T extends CheckDefinition<never>>(definition: T): Readonly<T> {
  if (!ID_PATTERN.test(definition.id)) {
    throw new Error(
      `check id '${definition.id}' must be kebab-case with a pd-, mcp-, dashdash-, toolcard- or lint- prefix`,
    );
  }
  for (const code of Object.keys(definition.messages)) {
    if (!isCode(code)) throw new Error(`check ${definition.id}: message code '${code}' must be kebab-case`);
  }
  return Object.freeze(definition);
}

/** The level of a check's failures follows the spec's word: MUST → error, SHOULD → warning. */
export function severityOf(level: SpecRef['level']): FindingLevel {
  switch (level) {
    case 'MUST':
    case 'MUST NOT':
    case 'SHALL':
    case 'REQUIRED':
      return 'error';
    case 'SHOULD':
    case 'SHOULD NOT':
    case 'RECOMMENDED':
      return 'warning';
    default:
      return 'info';
  }
}

/** The level of a check's failures: the user's (`rules`), else its spec's word. */
export function checkSeverity(check: { spec: Pick<SpecRef, 'level'>; severity?: FindingLevel }): FindingLevel {
  return check.severity ?? severityOf(check.spec.level);
}

/** How many sessions a check opens, from its `opens` metadata (0 when it declares none). */
export function opensOf(
  check: { opens?: CheckDefinition<unknown>['opens']; turn?: number },
  options: PlanOptions,
): number {
  if (options.shared && check.turn !== undefined) return 0;
  return typeof check.opens === 'function' ? check.opens(options) : (check.opens ?? 0);
}

/** How many sessions a check starts brand new, after others ended (none where it takes the shared session). */
export function freshOf(check: { fresh?: number; turn?: number }, options: Pick<PlanOptions, 'shared'>): number {
  return options.shared && check.turn !== undefined ? 0 : (check.fresh ?? 0);
}

/** Whether a check reads the whole run's traffic (it then runs after everything else). */
export function readsTraffic(check: { reads?: readonly Fact[] }): boolean {
  return check.reads?.includes('traffic') === true;
}
