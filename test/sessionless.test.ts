// 2026-07-28 over HTTP has no session to tie a grant to: once the calls before any fetch show that,
// the session criteria are said not to apply without being run (on a slow server their calls and
// the shrinking of what they "broke" took half a minute), and no rule about grants is said or shrunk.
import t from 'tap';
import { LIVE_CHECKS } from '../checks/index.js';
import { CheckRuns } from '../src/run/checks-phase.js';
import { SESSION_CRITERIA, type Run } from '../src/run/run.js';
import { MODERN_ERA } from '../src/transport/era.js';
import { CRITERION } from '../src/model/world.js';

/** Just what the check runner asks of a run, for a sessionless era (or not). */
function runStub(sessionless: boolean): Run {
  return {
    plan: { sessions: 3 },
    target: { kind: 'http', era: MODERN_ERA },
    ready: () => Promise.resolve(),
    sessionless: () => sessionless,
  } as unknown as Run;
}

t.test('in a sessionless era the session criteria are not run, and say why', async (t) => {
  const ran: string[] = [];
  const checks = LIVE_CHECKS.filter((c) => SESSION_CRITERIA.includes(c.id)).map((c) => ({
    ...c,
    run: async () => void ran.push(c.id),
  }));
  t.equal(checks.length, 3);
  const runs = new CheckRuns(runStub(true), checks);
  await runs.runChecks();
  t.same(ran, [], 'none of them ran');
  for (const r of runs.results()) {
    t.equal(r.status, 'skip', r.id);
    t.same(
      r.findings.map((f) => f.code),
      ['not-applicable-era'],
      r.id,
    );
  }
});

t.test('where the era has sessions they are not said not to apply', async (t) => {
  const checks = LIVE_CHECKS.filter((c) => c.id === CRITERION.grants).map((c) => ({ ...c, run: async () => {} }));
  const runs = new CheckRuns(runStub(false), checks);
  // Past this point the check's context needs a real run: only the runner's decision is looked at.
  await runs.runChecks().catch(() => {});
  t.equal(runs.states[0].runnerResult, undefined);
});
