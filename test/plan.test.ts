// The session plan (issue 14): what --explain-plan promises is what a run starts.
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIVE_CHECKS } from '../checks/index.js';
import { DEFAULT_SESSIONS, sessionPlan } from '../src/run/session-plan.js';
import { selectChecks } from '../src/core/select.js';
import { REFERENCE, checkJson, runCli, tempDir } from './helpers.js';
import { explorationSessions } from '../src/model/explore/explore.js';
import { DEFAULT_EXPLORE } from '../src/model/explore/defaults.js';
import { ERA_SCHEDULES, eraSchedule } from '../src/run/era-schedule.js';
import { plannedOpens } from '../src/run/run-plan.js';

/** The reference server behind a line that records each start in a file: one line per process. */
function countingServer(file: string): { args: string[]; extra: string[] } {
  const code =
    "require('fs').appendFileSync(process.env.COUNT_FILE, process.pid + '\\n'); import(require('url').pathToFileURL(process.argv[1]).href)";
  // The plan is one era's: the run is held to 2025-11-25 (its other era is another run of the same plan).
  return {
    args: [process.execPath, '-e', code, REFERENCE],
    extra: ['--env', `COUNT_FILE=${file}`, '--protocol', '2025-11-25'],
  };
}

function starts(file: string): number {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').length : 0;
}

/**
 * The exploration's sessions over stdio at the default budget and idleness: its own, beside the checks, the idle
 * session among them.
 */
const EXPLORING = explorationSessions('process', DEFAULT_EXPLORE, true).total;
/** The same where the run shares its sessions (stdio, default --sessions): the idle session is the probe. */
const EXPLORING_SHARED = explorationSessions('process', DEFAULT_EXPLORE, true, true).total;

t.test(
  "a default stdio run starts the processes its plan says: the probe, the clean session, the checks' shared session, the exploration's",
  async (t) => {
    const plan = sessionPlan(LIVE_CHECKS, {
      sessions: DEFAULT_SESSIONS.stdio,
      transport: 'stdio',
      explore: EXPLORING_SHARED,
      idleSeconds: 2,
    });
    t.equal(EXPLORING_SHARED, EXPLORING - 1, 'the idle session is no process of its own');
    t.equal(
      plan.total,
      4 + EXPLORING_SHARED,
      "probe, clean, criterion 6's, the shared session criterion 8 and the tool form take in turn, the exploration's",
    );
    t.equal(
      plan.upFront,
      plan.total - 1,
      'all but the shared session, started after the clean session ended, start at once',
    );
    // What the run reserves of its target ahead of the probe's answers is read from this plan (plannedOpens).
    t.equal(
      plan.ahead,
      plan.upFront - 1,
      'the sessions started ahead besides the probe: those the plan starts at once',
    );
    t.equal(
      plannedOpens(LIVE_CHECKS, { sessions: DEFAULT_SESSIONS.stdio, explore: DEFAULT_EXPLORE }, false, true),
      plan.ahead,
      'the run reserves what the plan says',
    );
    t.same(
      plan.shared,
      ['pd-session-isolation', 'pd-descriptions-tool'],
      'criterion 8 starts it; the tool form takes it where nothing was fetched yet',
    );
    t.match(
      plan.steps.find((s) => s.id === 'exploration'),
      { sessions: { probe: true, clean: false, opened: ['X1', 'X2'] } },
      'the exploration starts two sessions of its own; the probe is its idle session',
    );
    const file = join(tempDir(), 'starts');
    const server = countingServer(file);
    const { report } = await checkJson(server.args, server.extra);
    t.equal(report.verdict?.implements, 'yes', 'the reference server still passes');
    t.equal(report.cost?.heavyMb, undefined, 'the reference server is no heavy server: the default plan');
    t.equal(report.exploration?.sessions, EXPLORING, 'the exploration ran in two sessions and the idle one');
    t.equal(report.exploration?.idleHold?.session, 'probe', 'the probe was the idle session');
    t.equal(starts(file), plan.total, 'processes started by the run');
  },
);

t.test('--sessions changes the count, and isolation runs that many sessions at once', async (t) => {
  const file = join(tempDir(), 'starts');
  const server = countingServer(file);
  const only = selectChecks(LIVE_CHECKS, ['pd-authorization-enforced,pd-session-isolation'], []);
  const plan = sessionPlan(only, { sessions: 5, transport: 'stdio', explore: EXPLORING });
  const { report } = await checkJson(server.args, [
    ...server.extra,
    '--sessions',
    '5',
    '--only',
    'pd-authorization-enforced,pd-session-isolation',
  ]);
  t.equal(starts(file), plan.total);
  const isolation = report.results.find((r) => r.id === 'pd-session-isolation')!;
  t.equal(isolation.status, 'pass');
  t.match(isolation.findings.find((f) => f.code === 'tested')?.message ?? '', /^5 parallel sessions/);
});

t.test('a run of criterion 8 alone: the clean session ends, and the shared session starts after it', async (t) => {
  const only = selectChecks(LIVE_CHECKS, ['pd-session-isolation'], []);
  const plan = sessionPlan(only, { sessions: 3, transport: 'stdio', explore: EXPLORING_SHARED, idleSeconds: 2 });
  t.same(
    plan.steps.map((s) => [s.id, s.sessions]),
    [
      ['probe', { probe: true, clean: false, opened: [], fresh: [] }],
      ['unfetched-read-only', { probe: false, clean: true, opened: [], fresh: [] }],
      ['descriptions', { probe: true, clean: false, opened: [], fresh: [] }],
      ['unfetched-others', { probe: false, clean: true, opened: [], fresh: [] }],
      ['pd-session-isolation', { probe: true, clean: true, opened: [], fresh: [], shared: 'after' }],
      ['exploration', { probe: true, clean: false, opened: ['X1', 'X2'], fresh: [] }],
    ],
  );
  const file = join(tempDir(), 'starts');
  const server = countingServer(file);
  const { report } = await checkJson(server.args, [...server.extra, '--only', 'pd-session-isolation']);
  t.equal(report.results[0].status, 'pass');
  t.equal(starts(file), plan.total);
});

t.test("criterion 7's row names the clean session its calls were made in, not the probe", async (t) => {
  const only = selectChecks(LIVE_CHECKS, ['pd-description-required'], []);
  const plan = sessionPlan(only, { sessions: 3, transport: 'stdio', explore: EXPLORING_SHARED, idleSeconds: 2 });
  t.same(plan.steps.find((s) => s.id === 'pd-description-required')?.sessions, {
    probe: false,
    clean: true,
    opened: [],
    fresh: [],
  });
});

t.test('--explain-plan prints the plan and starts nothing', async (t) => {
  const file = join(tempDir(), 'starts');
  const server = countingServer(file);
  const run = await runCli(['--explain-plan', ...server.extra, '--', ...server.args]);
  t.equal(run.code, 0);
  t.equal(starts(file), 0, 'no server was started');
  t.match(run.stdout, /Session plan \(stdio, --sessions 3\): 6 server processes in all\./);
  t.match(
    run.stdout,
    /P is the checks' shared session: pd-session-isolation, then pd-descriptions-tool take it in turn/,
  );
  t.match(run.stdout, /pd-descriptions-tool\s+S0, P\s+when the server marks a tool form: the shared session P/);
  t.match(run.stdout, /pd-authorization-enforced \(#6\)\s+S0, S1 new\s+a new session/);
  t.match(run.stdout, /pd-session-isolation \(#8\)\s+S0, C, P after/);
  t.match(run.stdout, /exploration\s+S0, X1 X2 new\s+sequences of operations/);
  t.match(
    run.stdout,
    /S0 is then the idle session: once the checks are done with it, it fetches and calls one tool, stays idle while everything else is done/,
  );
  t.match(run.stdout, /at least 2 s, --idle/, 'by default the idle session waits 2 s at least (a fixed window)');
  t.match(
    run.stdout,
    /A heavy server \(its probe holds 150 MB or more once it answered, read from \/proc; or its command starts a container: docker, podman or nerdctl run\): at most 3 server processes alive at once/,
  );
  const longer = await runCli(['--explain-plan', '--idle', '5', ...server.extra, '--', ...server.args]);
  t.match(longer.stdout, /6 server processes in all/, 'a longer idle time opens no session more');
  const own = await runCli(['--explain-plan', '--sessions', '4', ...server.extra, '--', ...server.args]);
  t.match(
    own.stdout,
    /Session plan \(stdio, --sessions 4\): 10 server processes in all\./,
    '--sessions 4: each check its own sessions, the idle session too',
  );
  t.match(own.stdout, /X1 is the idle session/);
  t.match(own.stdout, /pd-session-isolation \(#8\)\s+S0, C, S2 S3 new, S4 after/);
  t.notMatch(own.stdout, /shared session/);
  t.match(longer.stdout, /at least 5 s, --idle/);
  const none = await runCli(['--explain-plan', '--idle', '0', ...server.extra, '--', ...server.args]);
  t.notMatch(none.stdout, /at least \d+ s/, '--idle 0: no time is added to the run');
  t.match(run.stdout, /mcp-wire-valid\s+none/);

  const http = await runCli(['--explain-plan', '--url', 'http://127.0.0.1:9/mcp', '--only', 'pd-']);
  t.equal(http.code, 0, 'no connection is attempted either');
  t.match(http.stdout, /Session plan \(http, --sessions 16\): 32 sessions of one server in all\./);
  t.match(http.stdout, /S0, C, S2–S15 new, S16 after/);
  // The eras' schedule, every form it takes there: over HTTP no server is heavy (one process serves every session).
  t.match(run.stdout, /Protocol era: 2025-11-25 only/);
  const eras = await runCli(['--explain-plan', '--', ...server.args]);
  t.match(
    eras.stdout,
    /- By default: a later era once the one before has made its calls before any fetch \(the runs overlap\)/,
  );
  t.match(eras.stdout, /- A server of more than 1,000 tools: a later era once the one before is quiet/);
  t.match(
    eras.stdout,
    /- A heavy server [^\n]*the eras one after the other; a later era's probe ends and starts again in its turn/,
  );
  t.notMatch(http.stdout, /- A heavy server/);
  t.match(http.stdout, /- By default: /);
});

t.test("the eras' schedule is decided from what the server showed, once", async (t) => {
  const by = (heavy: boolean, tools?: number) => eraSchedule({ heavy, ...(tools !== undefined ? { tools } : {}) });
  t.equal(by(false, 7).laterEraStarts, 'after-first-calls', 'a small server: the eras overlap');
  t.equal(
    by(false, 7).laterEraLearns,
    'what-keeps-calls-harmless',
    'beside the era before, only what keeps calls harmless',
  );
  t.ok(by(false, 7).laterEraListsEarly);
  t.equal(by(false).weight, 'default', 'before its listing is known, a server is no large one');
  t.equal(by(false, 1000).weight, 'default');
  t.equal(by(false, 1001).laterEraStarts, 'when-quiet', 'above 1,000 tools: once the era before is quiet');
  t.equal(by(false, 1001).laterEraLearns, 'everything');
  t.notOk(by(false, 1001).laterEraListsEarly, 'two listings never held at once');
  t.ok(by(false, 1001).idleThroughLaterEras);
  const heavy = by(true, 1001);
  t.equal(heavy.weight, 'heavy', 'heavy wins over large');
  t.same(
    [
      heavy.laterEraStarts,
      heavy.warmAhead,
      heavy.laterProbesRestart,
      heavy.idleThroughLaterEras,
      heavy.explorationAfterChecks,
    ],
    ['after-end', false, true, false, true],
  );
  t.same(
    ERA_SCHEDULES.map((s) => s.weight),
    ['default', 'large', 'heavy'],
    '--explain-plan prints every form',
  );
});

t.test('--only and --skip take comma lists as well as repeated values', async (t) => {
  const ids = (only: string[], skip: string[]) => selectChecks(LIVE_CHECKS, only, skip).map((c) => c.id);
  t.same(ids(['pd-resource-listed,pd-unknown-tool'], []), ids(['pd-resource-listed', 'pd-unknown-tool'], []));
  t.same(
    ids(['pd-'], ['pd-session-isolation, pd-token-savings']),
    ids(['pd-'], ['pd-session-isolation', 'pd-token-savings']),
  );
  t.notOk(ids(['pd-'], ['pd-session-isolation,pd-token-savings']).includes('pd-token-savings'));
  t.throws(() => selectChecks(LIVE_CHECKS, ['pd-resource-listed,nope'], []), /no check is called 'nope'/);
  // A typo gets the near ids, as explain and the config's rules give them, never every id on one line.
  const typo = await runCli(['--only', 'pd-minimal-descripions', '--', 'node', REFERENCE]);
  t.equal(typo.code, 2);
  t.equal(
    typo.stderr,
    "mcp-pd-check: no check is called 'pd-minimal-descripions' (did you mean 'pd-minimal-descriptions' or 'pd-full-descriptions'?); run 'mcp-pd-check list-checks' to see them all\n",
  );
  const explained = await runCli(['explain', 'pd-minimal-descripions']);
  t.equal(explained.stderr, typo.stderr, 'explain says the same');
});
