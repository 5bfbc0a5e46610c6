// What the fixture-server tests share: the fixtures, what each must fail, and the one rule every
// run of a fixture is judged by (its own check fails with exactly its codes; nothing else fails).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Test } from 'tap';
import type { Expectation } from '../../fixtures/servers/expectation.js';
import type { Behaviour } from '../../reference-server/server.js';
import type { CheckReport } from '../../src/generated/report.js';
import { cleanStatusOverStdio, FIXTURE_SOURCES, ROOT } from '../helpers.js';
import { codesOf } from './check-tester.js';
import { MODEL_CODES } from '../../src/model/rules.js';

/**
 * The only defects that break two checks: a tools/list that is not minimal (§3.1) is exactly what
 * makes progressive disclosure save no tokens (§1.2), and the other way round — and its listed
 * descriptions are past the quality rules' bound too; grants kept by TCP connection lose a
 * session's grant on its other connections (§5.1) and hand it to another session whose requests
 * share the connection (§5.1.4). And the defects that are also what a quality rule warns of: a
 * server without annotations (quality/annotations: hints given explicitly), a resource description
 * without the workflow (quality/resource-description). Every other fixture fails its own check
 * and nothing else.
 */
const ALSO_FAILS: Record<string, string[]> = {
  'pd-token-savings--verbose-list': ['pd-minimal-descriptions', 'quality/listed-too-long'],
  'pd-minimal-descriptions--full-schema-in-list': ['pd-token-savings'],
  'pd-authorization-enforced--grants-per-connection': ['pd-session-isolation'],
  'pd-description-required--shared-grants-unannotated': ['quality/annotations'],
  'pd-description-required--ungated-uncallable': ['quality/annotations'],
  'pd-session-isolation--grants-by-client-unannotated': ['quality/annotations'],
  'pd-resource-listed--no-parameters-mention': ['quality/resource-description'],
  'pd-resource-listed--no-workflow': ['quality/resource-description'],
};

export interface Fixture {
  name: string;
  check: string;
  /** What it declares it must produce (its module's `expected`). */
  expectation: Expectation;
  /** Its fault shows only when one process serves every session (over HTTP). */
  httpOnly: boolean;
  /** A SHOULD of a MUST check only warns; a check the run cannot prove against it is not proven. */
  expected: 'fail' | 'warn' | 'not-proven';
  codes: string[];
  /** The --cards folder it needs, absolute. */
  cards?: string;
  /** It breaks a rule of the model (not a static one): the exploration finds it, and shows its shortest sequence. */
  modelRule: boolean;
  /** What it shows needs the whole run (a rule of the model, or criteria left unproven by every check). */
  wholeRun: boolean;
  /** Its behaviour, for in-process servers. */
  overrides: Partial<Behaviour>;
}

/** The seed the fixture tests explore with: the same findings on every run (the generator test covers other seeds). */
export const TEST_SEED = 20261123;
/**
 * The idle session's least idleness for a fixture whose grant lapses with idleness (1.5 s). The other
 * fixtures run with --idle 0 (the run's own length): the default window is the stability test's to prove.
 */
export const IDLE_FIXTURE_SECONDS = 2;

/** The longest shortest sequence a one-rule defect may have. */
export const MAX_STEPS = 5;

/**
 * Every negative fixture, read from its module's `expected` export (the one place tests learn what a fixture must do).
 */
export const FIXTURES: Fixture[] = await Promise.all(
  readdirSync(FIXTURE_SOURCES)
    .filter((f) => f.includes('--') && f.endsWith('.ts'))
    .sort()
    .map(async (file) => {
      const name = file.replace(/\.ts$/, '');
      const module = (await import(join(ROOT, 'dist', 'fixtures', 'servers', `${name}.js`))) as {
        expected: Expectation;
        overrides: Partial<Behaviour>;
      };
      const e = module.expected;
      const codes = [...e.codes].sort();
      return {
        name,
        check: e.check,
        expectation: e,
        httpOnly: e.transports?.length === 1 && e.transports[0] === 'http',
        expected: e.level ?? 'fail',
        codes,
        ...(e.cards ? { cards: join(ROOT, e.cards) } : {}),
        modelRule: e.level !== 'not-proven' && codes.every((c) => MODEL_CODES[e.check]?.includes(c)),
        overrides: module.overrides,
        wholeRun:
          e.notProven !== undefined ||
          (e.level !== 'not-proven' && codes.every((c) => MODEL_CODES[e.check]?.includes(c))),
      };
    }),
);

/**
 * Its own check fails (or warns) with exactly its declared codes, with hints and proof; every other check passes or
 * skips saying why.
 */
export function judgeFixtureRun(t: Test, fixture: Fixture, report: CheckReport, kind: 'stdio' | 'http'): void {
  const era = fixture.expectation.era;
  const own = report.results.find((r) => r.id === fixture.check && (!era || r.era === era));
  if (!t.ok(own, `${fixture.check} ran`)) return;
  const notProven = fixture.expectation.notProven ?? {};
  if (fixture.expected === 'not-proven') {
    // Not proven: skipped with its reason, which says what would prove it; never a pass.
    t.equal(own!.status, 'skip', `${fixture.check} is not proven (skip)`);
    t.same(codesOf(own), [], 'with no failure');
    t.ok(
      own!.findings.some((f) => fixture.codes.includes(f.code) && f.hint),
      `its reason: ${fixture.codes.join(', ')}, with what would prove it`,
    );
  } else {
    t.equal(own!.status, fixture.expected, `${fixture.check} is '${fixture.expected}'`);
    const failing = own!.findings.filter((f) => f.level !== 'info');
    t.ok(failing.length > 0 && failing.every((f) => f.hint), 'with findings, each with a fix hint');
    t.ok(
      failing.some((f) => f.transcript?.length),
      'a finding carries the exchange that proves it',
    );
    t.same(codesOf(own), fixture.codes, `exactly the codes it declares: ${fixture.codes.join(', ')}`);
  }
  for (const [id, code] of Object.entries(notProven)) {
    const r = report.results.find((x) => x.id === id && (!era || x.era === era));
    t.equal(r?.status, 'skip', `${id} is not proven`);
    t.ok(
      r?.findings.some((f) => f.code === code),
      `${id} says why: ${code} (${r?.findings.map((f) => f.code).join(', ')})`,
    );
  }
  if (fixture.expected === 'not-proven' || Object.keys(notProven).length) {
    t.not(report.verdict?.implements, 'yes', `never yes (${report.verdict?.implements})`);
    for (const id of [fixture.check, ...Object.keys(notProven)].filter(
      (id) => fixture.expected === 'not-proven' || id !== fixture.check,
    )) {
      t.ok(
        report.verdict?.unproven?.some((u) => u.id === id) ||
          report.eras?.some((e) => e.verdict?.unproven?.some((u) => u.id === id)),
        `the verdict names ${id} as not proven`,
      );
    }
  }
  if (fixture.modelRule) {
    const shortest = own!.findings.find((f) => f.sequence)?.sequence;
    t.ok(
      shortest && shortest.steps.length <= MAX_STEPS,
      `the exploration shows a shortest sequence of at most ${MAX_STEPS} steps: ${shortest?.steps.join(' / ') ?? 'none'}`,
    );
  }
  if (era)
    t.same(
      report.eras?.filter((e) => e.checked).map((e) => e.era),
      ['2025-11-25', '2026-07-28'],
      'both eras were checked',
    );
  // In the other era, its own check is clean too.
  for (const r of report.results.filter(
    (r) => r !== own && !(r.id === fixture.check && !era) && !(ALSO_FAILS[fixture.name] ?? []).includes(r.id),
  )) {
    const clean = kind === 'stdio' ? cleanStatusOverStdio(r.id, r.era) : 'pass';
    const ok = r.status === clean || (r.status === 'skip' && r.findings.some((f) => f.level === 'info'));
    t.ok(
      ok,
      `${r.id}${r.era ? ` (${r.era})` : ''} still passes or is skipped with a reason (${r.status}: ${r.findings.map((f) => f.code).join(', ')})`,
    );
  }
}

/**
 * The protocol eras a fixture is checked in: both when its fault belongs to one, else 2025-11-25 (its fault is any
 * era's).
 */
export function protocolOf(fixture: Fixture): 'all' | '2025-11-25' {
  return fixture.expectation.era ? 'all' : '2025-11-25';
}

/**
 * The options a fixture runs with, before its server (`--url`, or `--` and its command): a JSON
 * report, its era, its --cards. A rule of the model: the whole run, its exploration finds it and
 * shrinks it. A static rule: its check alone (that no other check fails is proven in-process,
 * test/fixture-matrix.test.ts). The idle session is idle as long as the run by default; a fault
 * that needs a known idleness gets a minimum.
 */
export function fixtureRunOptions(fixture: Fixture): string[] {
  const scope = fixture.wholeRun
    ? ['--seed', String(TEST_SEED), '--idle', String(fixture.expectation.idle ? IDLE_FIXTURE_SECONDS : 0)]
    : ['--explore', '0', '--only', fixture.check];
  return [
    '--format',
    'json',
    '--protocol',
    protocolOf(fixture),
    ...scope,
    ...(fixture.cards ? ['--cards', fixture.cards] : []),
  ];
}
