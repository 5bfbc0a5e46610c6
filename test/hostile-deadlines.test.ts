// Hostile servers against the time limits: --max-duration ends a run on time, says what it cut and
// claims no failure it did not observe; a server whose later starts are too slow fails nothing for it.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cutShort } from '../src/core/findings.js';
import type { CheckReport } from '../src/generated/report.js';
import { tempDir } from './helpers.js';
import { assertVerdict, HOSTILE, runBounded, survivors } from './support/hostile.js';

t.test(
  '--max-duration ends the run on time: requests in flight are abandoned, and the report says what was cut',
  async (t) => {
    // Every request may wait a minute: only the run's deadline can end this run early.
    const run = await runBounded([
      '--format',
      'json',
      '--timeout',
      '60000',
      '--max-duration',
      '2',
      '--',
      'node',
      join(HOSTILE, 'stalls-after-probe.js'),
    ]);
    const report = assertVerdict(t, run, 1);
    t.ok(
      run.ms < 30_000,
      `it ended with the deadline, not with its requests (${Math.round(run.ms)} ms; a hang guard, not a timing test)`,
    );
    const cut =
      report?.results
        .filter((r) => r.findings.some((f) => f.code === 'not-run' || f.code === 'run-time-up'))
        .map((r) => r.id) ?? [];
    t.ok(cut.includes('pd-description-required'), `the checks the deadline cut say so (${cut.join(', ')})`);
    // What the checker did at the deadline (closing sessions) is no finding about the server.
    const afterCut =
      report?.results.flatMap((r) => r.findings).filter((f) => /SIGTERM|session was closed/.test(JSON.stringify(f))) ??
      [];
    t.same(
      afterCut.map((f) => f.message),
      [],
      'no finding blames the server for being stopped',
    );
    t.notOk(report?.verdict?.failing.includes('pd-description-required'), 'a criterion the deadline cut does not fail');
    t.match(
      report?.verdict?.summary,
      /Not proven \(no failure\): .*not run: the run reached --max-duration \(2 s\)|Stopped: the run reached --max-duration/,
      'the verdict says the deadline cut the rest',
    );
    t.same(survivors('stalls-after-probe', run), []);
  },
);

t.test(
  'a run the time cuts says it was cut, what did not run, counts it alike in every format, and claims no failure it did not observe',
  async (t) => {
    // A server that answers its probe and then nothing: only the deadline ends the run (each request may wait a
    // minute), whatever the machine's speed.
    const dir = tempDir();
    const files = { json: join(dir, 'report.json'), md: join(dir, 'report.md') };
    const run = await runBounded([
      '--timeout',
      '60000',
      '--max-duration',
      '2',
      '--report',
      `json=${files.json}`,
      '--report',
      `markdown=${files.md}`,
      '--',
      'node',
      join(HOSTILE, 'stalls-after-probe.js'),
    ]);
    t.equal(run.code, 1, 'exit 1: what the time cut is no pass');
    const report = JSON.parse(readFileSync(files.json, 'utf8')) as CheckReport;
    const cut = report.results.filter(cutShort);
    t.ok(cut.length > 10, `most checks were cut (${cut.length})`);
    t.same(
      report.results.filter((r) => r.findings.some((f) => /check-crashed/.test(f.code))).map((r) => r.id),
      [],
      'no check crashed for lack of what the cut left unread',
    );
    t.match(
      run.stdout,
      /; protocol 2026-07-28 not checked: the run reached --max-duration \(2 s\) before this era/,
      'an era not checked is said',
    );
    t.match(
      run.stdout,
      new RegExp(`\\nCOULD NOT RUN \\(${report.summary.errors}\\)\\n`),
      'the heading counts every error',
    );
    const counted = `${report.summary.failed} failed, 0 warnings, ${report.summary.skipped} skipped, ${
      report.summary.errors - cut.length ? `${report.summary.errors - cut.length} errors?, ` : ''
    }${cut.length} cut by --max-duration`;
    t.match(run.stdout, new RegExp(`${counted} \\(not run or stopped: no verdict on them`), 'the last line');
    t.match(readFileSync(files.md, 'utf8'), new RegExp(`^## .*${counted}\\n`), 'the Markdown counts the same');
    t.notMatch(run.stdout, /they fail the run/, 'no check the time cut is said to fail');
    t.notMatch(run.stdout, /score: \d/, 'no score from rules that never ran');
    t.match(run.stdout, /score: not computed: the run reached --max-duration/);
    t.match(run.stdout, /fix: Give the run more time: --max-duration above 2 s/, 'the fix names the limit');
    t.notMatch(run.stdout, /Make the server answer faster/);
  },
);

t.test(
  'a server whose later starts are too slow: what they would prove is not proven, and nothing fails for it',
  async (t) => {
    const marker = join(tempDir(), 'started');
    // The first start gets 5 s (a busy machine starts node in 1–2 s); the later ones take 20.
    // One era: the probe of a second would be a later start too.
    const run = await runBounded(
      [
        '--format',
        'json',
        '--protocol',
        '2025-11-25',
        '--startup-timeout',
        '5000',
        '--env',
        'MCP_PD_SLOW_MARKER',
        '--',
        'node',
        join(HOSTILE, 'slow-later-starts.js'),
      ],
      { MCP_PD_SLOW_MARKER: marker },
    );
    const report = assertVerdict(t, run, 1);
    const slow = report?.results.filter((r) => r.findings.some((f) => f.code === 'slow-start')) ?? [];
    t.ok(
      slow.length > 0,
      `the checks that needed a later session say it was slow to start (${slow.map((r) => r.id).join(', ')})`,
    );
    for (const r of slow) t.equal(r.status, 'skip', `${r.id}: not proven, never failed`);
    t.same(report?.verdict?.failingCriteria, [], 'no criterion fails for a slow start');
    t.equal(report?.verdict?.implements, 'partly', 'the verdict names them as not proven');
    const said = report?.results.flatMap((r) => r.findings).find((f) => f.code === 'slow-start');
    t.match(
      said?.message,
      /did not answer initialize within 5000 ms \(--startup-timeout\)/,
      'with the limit it missed',
    );
    t.match(said?.hint, /--startup-timeout/, 'and the option that raises it');
    t.notMatch(JSON.stringify(report), /must accept new sessions/, 'never a fix about sessions');
  },
);
