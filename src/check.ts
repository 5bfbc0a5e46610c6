import type { FindingLevel, SpecRef } from './generated/report.js';

/** What a check needs from the run: a live session, many sessions, files, or an HTTP target. */
export type CheckNeeds = 'session' | 'sessions' | 'folder' | 'http';

/** The spec reference of a check; `requirements` are ids from specs/REQUIREMENTS.md. */
export type CheckSpec = SpecRef & { requirements: string[] };

/**
 * A check: its metadata lives here once, and the runner stamps it onto every result.
 * `run` reports through its context (fail/warn/info/skip) and never prints.
 */
export interface CheckDefinition<Ctx> {
  /** kebab-case, stable forever, equal to the file name. */
  id: string;
  /** What passing means, in one line. */
  title: string;
  spec: CheckSpec;
  needs: CheckNeeds;
  /**
   * How many new sessions `run` opens (sessions forced fresh not counted), so the target can start
   * them ahead. A number, or a function of the run's options (e.g. `--sessions`).
   */
  opens?: number | ((options: { sessions: number }) => number);
  run(ctx: Ctx): Promise<void>;
}

const ID_PATTERN = /^(pd|mcp|dashdash|toolcard|lint)-[a-z0-9]+(-[a-z0-9]+)*$/;

export function defineCheck<Ctx>(definition: CheckDefinition<Ctx>): Readonly<CheckDefinition<Ctx>> {
  if (!ID_PATTERN.test(definition.id)) {
    throw new Error(`check id '${definition.id}' must be kebab-case with a pd-, mcp-, dashdash-, toolcard- or lint- prefix`);
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

/** How many sessions a check opens, from its `opens` metadata (0 when it declares none). */
export function opensOf(check: { opens?: CheckDefinition<unknown>['opens'] }, options: { sessions: number }): number {
  return typeof check.opens === 'function' ? check.opens(options) : check.opens ?? 0;
}
