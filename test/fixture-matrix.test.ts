// Every fixture server over Streamable HTTP, in-process: the reference's HTTP server with the
// fixture's behaviour, and the checker's own HTTP target, in this process (no process is spawned).
// Together with test/fixtures.test.ts (each fixture's process over stdio), every fixture is caught
// over both transports by exactly its check.
import t from 'tap';
import { join } from 'node:path';
import { LIVE_CHECKS } from '../checks/index.js';
import { startHttpServer } from '../reference-server/http.js';
import type { Behaviour } from '../reference-server/server.js';
import { checkTarget } from '../src/live.js';
import { DEFAULT_SESSIONS } from '../src/sessions.js';
import { HttpTarget } from '../src/target/target.js';
import { Redactor } from '../src/safety/redact.js';
import { ROOT, tempDir } from './helpers.js';
import { FIXTURES, judgeFixtureRun, TEST_SEED } from './support/fixtures.js';

for (const fixture of FIXTURES) {
  t.test(`${fixture.name} over HTTP (in-process) fails ${fixture.check} and nothing else`, async (t) => {
    process.env.GRANT_STORE = join(tempDir(), 'grants.json');
    const { overrides } = (await import(join(ROOT, 'dist', 'fixtures', 'servers', `${fixture.name}.js`))) as { overrides: Partial<Behaviour> };
    const server = await startHttpServer({ port: 0, overrides });
    t.teardown(() => server.close());
    const target = new HttpTarget(new URL(server.url), {}, { timeoutMs: 30_000, redactor: new Redactor() });
    const sessions = fixture.check === 'pd-session-isolation' ? DEFAULT_SESSIONS.http : 3;
    // A static rule needs no exploration; a rule of the model is found by it and shrunk.
    const explore = fixture.modelRule ? { seed: TEST_SEED } : { explore: 0 };
    const report = await checkTarget(target, { timeoutMs: 30_000, sessions, safeCalls: false, require: [], ...explore, ...(fixture.cards ? { cardsDir: fixture.cards } : {}) }, { checks: LIVE_CHECKS });
    judgeFixtureRun(t, fixture, report, 'http');
  });
}
