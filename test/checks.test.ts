// Every live check, in-process (no process spawned): valid cases pass, each invalid case produces
// exactly its codes. The fixture servers' own behaviours are reused here; test/fixtures.test.ts
// runs the same fixtures end to end as processes. The hand-written cases are in
// test/support/*-check-cases.ts, a table per family of checks.
import t from 'tap';
import { join } from 'node:path';
import { LIVE_CHECKS } from '../checks/index.js';
import { REFERENCE_CARDS, tempDir } from './helpers.js';
import { testCheck } from './support/check-tester.js';
import { FIXTURES } from './support/fixtures.js';
import { eraOf, fixtureCases, ref, type CheckCases } from './support/in-process-cases.js';
import { PD_CASES } from './support/pd-check-cases.js';
import { PROTOCOL_CASES } from './support/protocol-check-cases.js';
import { DASHDASH_CARD_CASES } from './support/dashdash-card-check-cases.js';

// The shared-grant-store fixture keeps its grants in this file (one per test run).
process.env.GRANT_STORE = join(tempDir(), 'grants.json');

/** Hand-written cases beyond the fixtures, per check: each breaks one thing. */
const CASES: CheckCases = { ...PD_CASES, ...PROTOCOL_CASES, ...DASHDASH_CARD_CASES };

t.test('every live check has in-process cases', async (t) => {
  t.same(Object.keys(CASES).sort(), LIVE_CHECKS.map((c) => c.id).sort());
});

for (const check of LIVE_CHECKS) {
  t.test(`${check.id}: valid and invalid cases, in-process`, async (t) => {
    const own = CASES[check.id];
    const reference = ref({}, check.needs === 'http' ? 'http' : 'stdio', eraOf(check));
    const invalid = [...fixtureCases(check), ...own.invalid];
    // A fault of the HTTP layer is proven by its fixture over real HTTP (fixtures.test, fixture-matrix.test).
    t.ok(
      invalid.length > 0 || FIXTURES.some((f) => f.check === check.id && f.expectation.httpLayer),
      'at least one invalid case',
    );
    // Card files are compared only when a folder is given: the reference server's own.
    const options = check.id === 'toolcard-files' ? { cardsDir: REFERENCE_CARDS } : undefined;
    // A check of the HTTP layer itself skips in-process (there is no HTTP layer): its fixtures prove it over HTTP.
    const httpLayer = FIXTURES.some((f) => f.check === check.id && f.expectation.httpLayer);
    await testCheck(t, check, {
      valid: [
        {
          name: 'the reference server',
          server: reference,
          ...(options ? { options } : {}),
          ...(httpLayer ? { status: 'skip' as const } : {}),
        },
        ...(own.valid ?? []),
      ],
      invalid,
    });
  });
}
