// The official MCP conformance suite's scenarios that apply to any server, run against the
// reference server over HTTP. What it needs comes from npm at test time — a pinned suite and a
// Node >= 22 of its own (npm's node@22 package) — into a cache folder of its own (test/support/outside-install.ts), so
// neither
// reaches the project's PATH or dependencies. Skipped with a reason only when npm cannot be reached.
import t from 'tap';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REFERENCE, startHttp, tempDir } from './helpers.js';
import { installOfficialSuite, OFFICIAL_SUITE } from './support/outside-install.js';

const run = promisify(execFile);
/** The generic server scenarios, each with the check of ours that covers the same ground (docs/criteria.md). */
export const SCENARIOS = [
  'server-initialize',
  'server-session-lifecycle',
  'ping',
  'tools-list',
  'resources-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];
/** The scenarios of its requirements/2026-07-28.yaml that apply to any server, run at that revision's wire version. */
export const MODERN_SCENARIOS = [
  'server-stateless',
  'tools-list',
  'resources-list',
  'sep-2164-resource-not-found',
  'caching',
  'dns-rebinding-protection',
];
/**
 * What the suite cannot test on a server without its own diagnostic tools (test_missing_capability,
 * test_streaming_elicitation, test_logging_tool): it marks these "Not testable", and says so.
 */
const NEEDS_DIAGNOSTIC_TOOLS = [
  'sep-2575-server-rejects-undeclared-capability',
  'sep-2575-missing-capability-http-400',
  'sep-2575-http-server-no-independent-requests-on-stream',
  'sep-2575-server-no-log-without-loglevel',
];

const suite = await installOfficialSuite();
const unreachable = suite.unreachable;

t.test(
  `the official conformance suite (${OFFICIAL_SUITE}) passes its generic server scenarios against the reference server`,
  { skip: unreachable ?? false },
  async (t) => {
    const server = await startHttp(REFERENCE);
    t.teardown(server.stop);
    const { node, cli } = suite;
    const { stdout: version } = await run(node, ['--version']);
    t.match(version, /^v2[2-9]\./, `the suite runs on its own Node (${version.trim()})`);
    for (const scenario of SCENARIOS) {
      // dns-rebinding-protection wants a localhost URL (its foreign Host must differ from it).
      const url = scenario === 'dns-rebinding-protection' ? server.url.replace('127.0.0.1', 'localhost') : server.url;
      const done = await run(node, [cli, 'server', '--url', url, '--scenario', scenario], { timeout: 120_000 }).then(
        (r) => ({ ...r, code: 0 }),
        (err: { stdout?: string; stderr?: string; code?: number }) => ({
          stdout: err.stdout ?? '',
          stderr: err.stderr ?? '',
          code: err.code ?? 1,
        }),
      );
      const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(done.stdout);
      t.ok(
        done.code === 0 && summary && summary[3] === '0' && summary[1] === summary[2],
        `${scenario}: ${summary?.[0] ?? done.stdout.slice(-300) + done.stderr.slice(-300)}`,
      );
    }
  },
);

interface SuiteCheck {
  id: string;
  status: string;
  errorMessage?: string;
  details?: { untestable?: boolean };
}

t.test(
  `the official conformance suite's 2026-07-28 scenarios that apply to any server pass against the reference server`,
  { skip: unreachable ?? false },
  async (t) => {
    const server = await startHttp(REFERENCE);
    t.teardown(server.stop);
    const { node, cli } = suite;
    for (const scenario of MODERN_SCENARIOS) {
      const url = scenario === 'dns-rebinding-protection' ? server.url.replace('127.0.0.1', 'localhost') : server.url;
      const out = tempDir();
      await run(
        node,
        [cli, 'server', '--url', url, '--scenario', scenario, '--spec-version', '2026-07-28', '-o', out],
        { timeout: 120_000 },
      ).catch(() => undefined);
      const [folder] = readdirSync(out);
      if (!t.ok(folder, `${scenario}: the suite wrote its results`)) continue;
      const checks = JSON.parse(readFileSync(join(out, folder, 'checks.json'), 'utf8')) as SuiteCheck[];
      const failed = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      const untestable = failed.filter((c) => c.details?.untestable === true && NEEDS_DIAGNOSTIC_TOOLS.includes(c.id));
      t.same(
        failed.filter((c) => !untestable.includes(c)).map((c) => `${c.id}: ${c.errorMessage ?? ''}`),
        [],
        `${scenario}: ${checks.length - failed.length}/${checks.length} passed, nothing failed but what needs the suite's diagnostic tools (${untestable.length})`,
      );
      t.ok(
        checks.some((c) => c.status === 'SUCCESS'),
        `${scenario}: something was checked`,
      );
    }
  },
);
