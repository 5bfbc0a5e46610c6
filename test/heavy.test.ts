// A heavy server (src/run/heavy.ts, issue 54): one whose process holds 150 MB or more gets a run
// that keeps at most three server processes alive at once — the protocol eras one after the other,
// the exploration's sessions after the checks' — and that catches what the default plan catches.
import t, { type Test } from 'tap';
import { chmodSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { HEAVY_AT_ONCE, HEAVY_SERVER_MB } from '../src/run/heavy.js';
import { renderText } from '../reports/text.js';
import { fixtureBundle, REFERENCE, reportSchemaErrors, runCli, tempDir } from './helpers.js';
import { FIXTURES, fixtureRunOptions, judgeFixtureRun } from './support/fixtures.js';

/** A fixture made heavy: it holds this much besides what node itself takes. */
const HEAVY = ['--env', `HEAVY_MB=${HEAVY_SERVER_MB}`];

function reportOf(t: Test, stdout: string, stderr: string): CheckReport | undefined {
  try {
    return JSON.parse(stdout) as CheckReport;
  } catch {
    t.fail(`no JSON report: ${stderr.slice(0, 500)}`);
    return undefined;
  }
}

t.test('a server that holds 150 MB a process: both eras, at most three processes at once, and a yes', async (t) => {
  const run = await runCli(['--format', 'json', ...HEAVY, '--', 'node', fixtureBundle('heavy-start')]);
  const report = reportOf(t, run.stdout, run.stderr);
  if (!report) return;
  t.same(reportSchemaErrors(report), [], 'report is schema-valid');
  t.equal(report.verdict?.implements, 'yes', 'a correct server is still a yes');
  t.same(
    report.eras?.map((e) => e.checked),
    [true, true],
    'both eras checked',
  );
  t.ok(
    report.cost!.atOnce <= HEAVY_AT_ONCE,
    `at most ${HEAVY_AT_ONCE} server processes at once (${report.cost!.atOnce})`,
  );
  t.ok(
    report.cost!.heavyMb! >= HEAVY_SERVER_MB,
    `the report says the server was heavy, and how heavy (${report.cost!.heavyMb} MB)`,
  );
  t.ok(report.exploration?.idleHold, 'the exploration ran, and the idle proof was made');
  t.match(
    renderText(report, { color: false }),
    /\(\d at once, [\d,]+ MB at the peak; a heavy server \([\d,]+ MB a process\): the eras one after the other\)/,
    'the text report says why the run was slower',
  );
});

// The kinds the heavy plan changes most: a grant held idle, grants across sessions (the checks'
// sessions now end before the exploration's start), criterion 6 and the tool form beside the rest.
const KINDS = [
  'pd-authorization-enforced--grant-lapses-when-idle',
  'pd-authorization-enforced--listing-clears-grants',
  'pd-authorization-enforced--missing-read-grants',
  'pd-session-isolation--shared-grant-store',
  'pd-descriptions-tool--grants-every-tool',
  'pd-description-required--refuses-once',
];

for (const name of KINDS) {
  const fixture = FIXTURES.find((f) => f.name === name)!;
  t.test(
    `${name}, made heavy, fails ${fixture.check} and nothing else, with at most three processes at once`,
    async (t) => {
      const run = await runCli([
        ...fixtureRunOptions(fixture),
        ...HEAVY,
        '--env',
        `GRANT_STORE=${join(tempDir(), 'grants.json')}`,
        '--',
        'node',
        fixtureBundle(name),
      ]);
      const report = reportOf(t, run.stdout, run.stderr);
      if (!report) return;
      t.ok(
        report.cost?.heavyMb !== undefined && report.cost.atOnce <= HEAVY_AT_ONCE,
        `the heavy plan (${report.cost?.atOnce} at once)`,
      );
      judgeFixtureRun(t, fixture, report, 'stdio');
    },
  );
}

// `docker run -i --rm <image>` (how many MCP servers are published): every session a container,
// whose memory is not in the command's process group. A stand-in `docker` on PATH starts the
// reference server; the plan is the heavy one by the command's words.
t.test(
  'a server started by docker run: planned as heavy by its command, both eras, at most three at once',
  async (t) => {
    const bin = tempDir();
    writeFileSync(
      join(bin, 'docker'),
      `#!/bin/sh\n# A stand-in for docker: 'docker run -i --rm <image>' runs the reference server.\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(REFERENCE)}\n`,
    );
    chmodSync(join(bin, 'docker'), 0o755);
    const run = await runCli(['--format', 'json', '--', 'docker', 'run', '-i', '--rm', 'mcp/notes'], {
      env: { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
    });
    const report = reportOf(t, run.stdout, run.stderr);
    if (!report) return;
    t.same(reportSchemaErrors(report), [], 'report is schema-valid');
    t.equal(report.verdict?.implements, 'yes', 'a correct server is still a yes');
    t.same(
      report.eras?.map((e) => e.checked),
      [true, true],
      'both eras checked',
    );
    t.equal(report.cost?.heavyContainer, true, 'the report says why: a container a session');
    t.equal(report.cost?.heavyMb, undefined, 'not by memory (the stand-in is a small process)');
    t.ok(
      report.cost!.atOnce <= HEAVY_AT_ONCE,
      `at most ${HEAVY_AT_ONCE} server processes at once (${report.cost!.atOnce})`,
    );
    t.match(
      renderText(report, { color: false }),
      /; a heavy server \(a container a session\): the eras one after the other\)/,
      'the text report says it',
    );
  },
);
