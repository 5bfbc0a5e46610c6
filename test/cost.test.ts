// What a run costs over stdio (issue 54): the report counts the server processes it started, the
// most alive at once and their memory. Counted here from outside, by a wrapper that writes a line
// at every start and a line at every exit.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkJson, REFERENCE, runCli, startHttp, tempDir } from './helpers.js';
import type { CheckReport } from '../src/generated/report.js';

t.test(
  'the report says how many server processes the run started, how many at once, and their peak memory',
  async (t) => {
    const dir = tempDir();
    const log = join(dir, 'starts.log');
    const wrapper = join(dir, 'server.mjs');
    writeFileSync(
      wrapper,
      [
        `import { appendFileSync } from 'node:fs';`,
        `appendFileSync(${JSON.stringify(log)}, '+' + process.pid + '\\n');`,
        `process.on('exit', () => appendFileSync(${JSON.stringify(log)}, '-' + process.pid + '\\n'));`,
        `for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));`,
        `await import(${JSON.stringify(`file://${REFERENCE}`)});`,
      ].join('\n'),
    );
    const { report } = await checkJson(['node', wrapper], ['--idle', '0', '--timeout', '60000']);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const starts = lines.filter((l) => l.startsWith('+')).length;
    // The most alive at once, from the order of the lines (an exit is written before the process is gone: at most as
    // many).
    let alive = 0;
    let most = 0;
    for (const l of lines) most = Math.max(most, (alive += l.startsWith('+') ? 1 : -1));
    t.equal(report.cost?.processes, starts, `as many as started (${starts})`);
    t.ok(
      report.cost !== undefined && report.cost.atOnce >= most && report.cost.atOnce <= starts,
      `at once: ${report.cost?.atOnce} (the wrapper saw ${most} at most)`,
    );
    if (process.platform === 'linux')
      t.ok(
        (report.cost?.peakMemoryMb ?? 0) > 20,
        `memory at the peak: ${report.cost?.peakMemoryMb} MB (more than one node process)`,
      );
  },
);

t.test('over HTTP the checker starts no server: no cost is said', async (t) => {
  const server = await startHttp(REFERENCE);
  t.teardown(() => server.stop());
  const run = await runCli(['--format', 'json', '--idle', '0', '--timeout', '60000', '--url', server.url]);
  t.equal(run.code, 0, run.stderr);
  t.equal((JSON.parse(run.stdout) as CheckReport).cost, undefined);
});
