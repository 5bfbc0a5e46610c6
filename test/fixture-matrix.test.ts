// Every fixture server over Streamable HTTP, in-process: the reference's HTTP server with the
// fixture's behaviour, and the checker's library (checkServer), in this process (no process is spawned).
// Together with test/fixtures.test.ts (each fixture's process over stdio), every fixture is caught
// over both transports by exactly its check.
import t from 'tap';
import { join } from 'node:path';
import { LIVE_CHECKS } from '../checks/index.js';
import { startHttpServer } from '../reference-server/http.js';
import type { Behaviour } from '../reference-server/server.js';
import { DEFAULT_SESSIONS } from '../src/run/session-plan.js';
import { checkServer } from '../src/index.js';
import { ROOT, tempDir } from './helpers.js';
import { FIXTURES, judgeFixtureRun, protocolOf, TEST_SEED, IDLE_FIXTURE_SECONDS } from './support/fixtures.js';

for (const fixture of FIXTURES) {
  t.test(`${fixture.name} over HTTP (in-process) fails ${fixture.check} and nothing else`, async (t) => {
    process.env.GRANT_STORE = join(tempDir(), 'grants.json');
    const { overrides } = (await import(join(ROOT, 'dist', 'fixtures', 'servers', `${fixture.name}.js`))) as {
      overrides: Partial<Behaviour>;
    };
    const server = await startHttpServer({ port: 0, overrides });
    t.teardown(() => server.close());
    const sessions = fixture.check === 'pd-session-isolation' ? DEFAULT_SESSIONS.http : 3;
    // A static rule needs no exploration; a rule of the model is found by it and shrunk.
    const explore = fixture.wholeRun
      ? { seed: TEST_SEED, idleSeconds: fixture.expectation.idle ? IDLE_FIXTURE_SECONDS : 0 }
      : { explore: 0 };
    // Through the library's one door, as a user's code would call it.
    const report = await checkServer({
      url: server.url,
      protocol: protocolOf(fixture),
      timeoutMs: 30_000,
      sessions,
      ...explore,
      ...(fixture.cards ? { cards: fixture.cards } : {}),
      checks: LIVE_CHECKS,
    });
    judgeFixtureRun(t, fixture, report, 'http');
  });
}
