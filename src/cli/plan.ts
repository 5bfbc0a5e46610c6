import type { PlanStep, SessionPlan } from '../run/session-plan.js';
import { LIVE_CHECKS } from '../../checks/index.js';
import { ERAS, type Era } from '../transport/era.js';
import { COSTLY_START_CPU_MS, COSTLY_STARTS_AT_ONCE, HEAVY_AT_ONCE } from '../run/heavy.js';
import { ERA_SCHEDULES, scheduleText, weightText } from '../run/era-schedule.js';

/** The session plan as `--explain-plan` prints it: what starts when, and why each check needs it. */
export function planText(
  plan: SessionPlan,
  protocol: 'all' | Era = 'all',
  levels: { rules?: Record<string, unknown>; plugins?: ReadonlyArray<{ name: string; version: string }> } = {},
): string {
  const unit = plan.transport === 'stdio' ? 'server processes' : 'sessions of one server';
  const later = plan.total - plan.upFront;
  const lines = [
    `Session plan (${plan.transport}, --sessions ${plan.sessions}): ${plan.total} ${unit} in all.`,
    `S0 (the probe)${plan.clean ? ", C (the run's clean session: nothing is fetched in it until its part is done)" : ''} and ${plan.upFront - (plan.clean ? 2 : 1)} more start together at the beginning` +
      `${later ? `; ${later} more ${later === 1 ? 'starts' : 'start'} only after the sessions before ${later === 1 ? 'it' : 'them'} ended` : ''}.`,
    ...(plan.shared
      ? [
          `P is the checks' shared session: ${plan.shared.length > 1 ? `${plan.shared.join(', then ')} take it in turn, each once the one before is done` : `${plan.shared[0]} alone takes it`} (over stdio each session is a server process; --sessions ${plan.sessions + 1} or more gives each check its own).`,
        ]
      : []),
    '',
  ];
  const rows = collapse(plan.steps).map((r) => [r.order, r.name, r.sessions, r.use] as const);
  const width = (k: 1 | 2) => Math.max(k === 1 ? 4 : 8, ...rows.map((r) => r[k].length));
  lines.push(`${'#'.padStart(5)}  ${'step'.padEnd(width(1))}  ${'sessions'.padEnd(width(2))}  why`);
  for (const [order, name, sessions, use] of rows)
    lines.push(`${order.padStart(5)}  ${name.padEnd(width(1))}  ${sessions.padEnd(width(2))}  ${use}`);
  // The plan is one era's: which eras a server speaks is known only once it answered; how they share
  // the time, once it has (src/run/era-schedule.ts: every form it can take here).
  const heavyApplies = plan.transport === 'stdio' && plan.shared !== undefined;
  const schedules = ERA_SCHEDULES.filter((s) => s.weight !== 'heavy' || heavyApplies);
  if (protocol === 'all') {
    lines.push(
      '',
      `Protocol eras (--protocol all): this plan runs once for each era the server speaks, ${ERAS.join(' then ')}, each after its own probe (both probes start at once), each with its idle session; checks of one era (${LIVE_CHECKS.filter(
        (c) => c.eras,
      )
        .map((c) => c.id)
        .join(', ')}) skip in the other. How the eras share the time:`,
    );
    lines.push(...schedules.map((s) => `- ${scheduleText(s)}`));
  } else {
    lines.push('', `Protocol era: ${protocol} only (--protocol ${protocol}).`);
    // Over stdio, sharing sessions: a server whose processes are heavy gets the plan that keeps the fewest alive at
    // once.
    if (heavyApplies)
      lines.push(
        '',
        `${weightText('heavy')}: at most ${HEAVY_AT_ONCE} server processes alive at once — the exploration's sessions once the checks' have ended; the run takes longer.`,
      );
  }
  // A server costly to start, with any schedule: its starts wait for one another.
  if (heavyApplies)
    lines.push(
      '',
      `A server costly to start (its probe used more than ${COSTLY_START_CPU_MS} ms of CPU by its first answer, read from /proc: npx, a Python server importing its libraries, a JVM): at most ${COSTLY_STARTS_AT_ONCE} server processes starting at once, in every era; a start waiting for its turn is not counted against --startup-timeout.`,
    );
  // The user's levels and plugins: what they change in the plan (a check set to off is not in it).
  if (levels.plugins?.length)
    lines.push(
      '',
      `Plugins: ${levels.plugins.map((p) => `${p.name} ${p.version}`).join(', ')} (their checks are <plugin>/<id> above).`,
    );
  if (levels.rules && Object.keys(levels.rules).length)
    lines.push(
      '',
      `Levels set by rules: ${Object.entries(levels.rules)
        .map(([id, level]) => `${id} ${typeof level === 'string' ? level : JSON.stringify(level)}`)
        .join(', ')} (off: not run).`,
    );
  lines.push(
    '',
    'Phases run in this order; checks start as soon as the facts they read exist, independent ones at the same time.',
    'Why each session exists: docs/DESIGN.md, "The session plan". Nothing was started.',
    '',
  );
  return lines.join('\n');
}

interface Row {
  order: string;
  name: string;
  sessions: string;
  use: string;
}

/** Runs of three or more checks that use the sessions alike become one row. */
function collapse(steps: PlanStep[]): Row[] {
  const rows: Row[] = [];
  for (let i = 0; i < steps.length;) {
    let j = i + 1;
    while (j < steps.length && sessionsText(steps[j]) === sessionsText(steps[i]) && steps[j].use === steps[i].use) j++;
    const first = steps[i];
    const last = steps[j - 1];
    rows.push(
      j - i >= 3
        ? {
            order: `${first.order}–${last.order}`,
            name: `${j - i} checks: ${first.id} … ${last.id}`,
            sessions: sessionsText(first),
            use: first.use,
          }
        : { order: String(first.order), name: nameOf(first), sessions: sessionsText(first), use: first.use },
    );
    if (j - i < 3) j = i + 1;
    i = j;
  }
  return rows;
}

function nameOf(step: PlanStep): string {
  return `${step.id}${step.criterion !== undefined ? ` (#${step.criterion})` : ''}`;
}

function sessionsText(step: PlanStep): string {
  const { probe, clean, opened, fresh, shared } = step.sessions;
  const parts = [
    ...(probe ? ['S0'] : []),
    ...(clean ? ['C'] : []),
    ...(shared ? [shared === 'after' ? 'P after' : 'P'] : []),
    ...(opened.length ? [`${range(opened)} new`] : []),
    ...(fresh.length ? [`${range(fresh)} after`] : []),
  ];
  return parts.join(', ') || 'none';
}

function range(labels: string[]): string {
  return labels.length > 2 ? `${labels[0]}–${labels[labels.length - 1]}` : labels.join(' ');
}
