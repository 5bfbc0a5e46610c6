// A call that reports progress has reached its tool (a long operation: an export, a crawl): the
// checker takes that as the call's outcome — it ran — cancels it, and does not call the tool again.
// The fixture's tools report progress every 100 ms and never finish unless cancelled, and every
// request may wait two minutes (--timeout): only the progress can end these runs early.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { fixtureBundle, reportSchemaErrors, runCli, startHttp, tempDir } from './helpers.js';

const PROGRESS = fixtureBundle('progress-reference');

t.test(
  'a correct server whose tools run long: yes, each tool called once, cancelled once it reported progress',
  async (t) => {
    const log = join(tempDir(), 'calls.log');
    const run = await runCli([
      '--format',
      'json',
      '--protocol',
      '2025-11-25',
      '--timeout',
      '120000',
      '--env',
      `PD_PROGRESS_LOG=${log}`,
      '--',
      'node',
      PROGRESS,
    ]);
    const report = JSON.parse(run.stdout) as CheckReport;
    t.same(reportSchemaErrors(report), []);
    t.equal(report.verdict?.implements, 'yes', report.verdict?.summary ?? run.stderr);
    t.equal(run.code, 0);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const started = lines.filter((l) => l.startsWith('started ')).map((l) => l.split(' ')[1]);
    const cancelled = lines.filter((l) => l.startsWith('cancelled ')).map((l) => l.split(' ')[1]);
    t.ok(started.length > 0, `tools were called (${started.join(', ')})`);
    t.same([...cancelled].sort(), [...started].sort(), 'every call that ran was cancelled (notifications/cancelled)');
    t.ok(
      lines.every((l) => !l.includes('token=undefined')),
      'every call carried a progress token',
    );
    // Calls sent at the same time may each run; in a session (a process: its lines are in order), none
    // starts once one of its tool was cancelled.
    const pid = (l: string) => l.split(' ').pop();
    const startedAfterCancel = lines.filter(
      (l, i) =>
        l.startsWith('started ') &&
        lines.slice(0, i).some((b) => b.startsWith(`cancelled ${l.split(' ')[1]} `) && pid(b) === pid(l)),
    );
    t.same(startedAfterCancel, [], 'no tool that ran long is called again in its session');
    const notAgain = report.results
      .flatMap((r) => r.findings)
      .filter((f) =>
        /an earlier call ran long \(it reported progress, and was cancelled after \d+\.\d s\): another would only wait again/.test(
          f.message,
        ),
      );
    t.ok(notAgain.length > 0, 'the report says why such a tool was not called again');
  },
);

t.test(
  'a server that never gates, whose tools run long: criterion 7 fails on a call that reported progress',
  async (t) => {
    const run = await runCli([
      '--format',
      'json',
      '--protocol',
      '2025-11-25',
      '--timeout',
      '120000',
      '--env',
      'PD_UNGATED=1',
      '--',
      'node',
      PROGRESS,
    ]);
    const report = JSON.parse(run.stdout) as CheckReport;
    t.same(reportSchemaErrors(report), []);
    t.equal(run.code, 1);
    const c7 = report.results.find((r) => r.id === 'pd-description-required');
    t.equal(c7?.status, 'fail');
    const ran = c7?.findings.find((f) => f.code === 'ran-unfetched');
    t.match(ran?.message, /it ran: the server reported progress on it/);
    const call = (ran?.transcript ?? []).find((ex) => ex.progress !== undefined);
    t.ok(call, 'its transcript holds the progress notification');
    t.equal(call?.noResponse, 'cancelled');
    t.match(
      call?.note,
      /it reached the tool: the server reported progress on it, and the checker cancelled it after \d+\.\d s/,
    );
    // The text report shows the progress where the answer would be.
    const text = await runCli([
      '--protocol',
      '2025-11-25',
      '--only',
      'pd-description-required',
      '--timeout',
      '120000',
      '--env',
      'PD_UNGATED=1',
      '--',
      'node',
      PROGRESS,
    ]);
    t.match(
      text.stdout,
      /← progress \{"progressToken":\d+,"progress":\d+\}; it reached the tool: the server reported progress on it/,
    );
  },
);

t.test('over Streamable HTTP too: yes, and every call that ran was cancelled', async (t) => {
  const log = join(tempDir(), 'calls.log');
  const server = await startHttp(PROGRESS, { PD_PROGRESS_LOG: log });
  t.teardown(server.stop);
  const run = await runCli([
    '--format',
    'json',
    '--protocol',
    '2025-11-25',
    '--timeout',
    '120000',
    '--url',
    server.url,
  ]);
  const report = JSON.parse(run.stdout) as CheckReport;
  t.equal(report.verdict?.implements, 'yes', report.verdict?.summary ?? run.stderr);
  const lines = readFileSync(log, 'utf8').trim().split('\n');
  const started = lines.filter((l) => l.startsWith('started ')).length;
  t.ok(started > 0, 'tools were called');
  t.equal(lines.filter((l) => l.startsWith('cancelled ')).length, started, 'each cancelled (notifications/cancelled)');
});
