// What each CI job of a sweep (issue 57) leaves, and how merge takes it: --out-dir writes each server
// as it is done, and after a job killed at its time limit --resume checks only what was not reported;
// in a matrix of single-server jobs, a server that cannot be started still leaves its JSON report.
import t from 'tap';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, REFERENCE, runCli, tempDir } from './helpers.js';
import { read, type FleetJson } from './support/sweep-fleet.js';

const dir = tempDir();

t.test(
  '--out-dir writes each server as it is done; killed halfway, --resume checks only what was not reported',
  async (t) => {
    const sweep = tempDir();
    const starts = join(sweep, 'starts.log');
    // Each server says it was started (one line per session) and is then the reference server.
    const wrapper = join(sweep, 'server.mjs');
    writeFileSync(
      wrapper,
      `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(starts)}, process.argv[2] + '\\n');\nprocess.argv.splice(2);\nawait import(${JSON.stringify(`file://${REFERENCE}`)});\n`,
    );
    const names = ['one', 'two', 'three', 'four', 'five'];
    const fleet = join(sweep, 'mcp.json');
    writeFileSync(
      fleet,
      JSON.stringify({
        mcpServers: Object.fromEntries(names.map((n) => [n, { command: 'node', args: [wrapper, n] }])),
      }),
    );
    const out = join(sweep, 'out');
    const args = [
      '--explore',
      '0',
      '--only',
      'pd-',
      '--timeout',
      '60000',
      '--server-config',
      fleet,
      '--out-dir',
      out,
      '--format',
      'json',
    ];
    const reported = () => readdirSync(out).filter((f) => f.endsWith('.json') && !f.startsWith('.'));

    // The first run is killed (as a CI job at its time limit) once two servers are reported.
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
    t.teardown(() => void child.kill('SIGKILL'));
    for (let waited = 0; waited < 120_000; waited += 100) {
      await new Promise((r) => setTimeout(r, 100));
      if (
        (() => {
          try {
            return reported().length >= 2;
          } catch {
            return false;
          }
        })()
      )
        break;
    }
    child.kill('SIGTERM');
    t.equal(await ended, 143, 'it ends as an interrupted run does');
    t.match(
      stderr,
      /interrupted \(SIGTERM\); the servers finished are reported in .*out \(rerun with --resume to check only the rest\)/,
    );
    const done = reported().map((f) => read(join(out, f)).servers[0].name);
    t.ok(done.length >= 2 && done.length < names.length, `killed halfway: ${done.join(', ')} reported`);
    t.same(
      readdirSync(out).filter((f) => f.startsWith('.')),
      [],
      'no half-written file left in view (each is renamed whole)',
    );
    for (const f of reported())
      t.equal(read(join(out, f)).servers[0].report?.verdict?.implements, 'yes', `${f}: a whole report`);
    // Merged alone, the killed run's files cannot name the servers it did not reach: a row says how many.
    const partial = await runCli(['merge', out, '--format', 'junit']);
    t.equal(partial.code, 2, 'a sweep with a hole');
    t.match(
      partial.stderr,
      new RegExp(`merge: ${names.length} servers of .*mcp\\.json from ${done.length} reports\n`),
      'the fleet counted as it is, not its rows',
    );
    t.match(
      partial.stderr,
      new RegExp(`merge: ${names.length - done.length} of the fleet's ${names.length} servers in none of the reports`),
    );
    t.match(
      partial.stdout,
      new RegExp(`<testsuite name="\\(${names.length - done.length} not named\\)" tests="1" failures="0" errors="1"`),
      'JUnit keeps them as an errored suite',
    );
    const missingRow = (await runCli(['merge', out])).stdout.split('\n').find((l) => /not named/.test(l));
    t.match(missingRow, /missing/, `the text report's row of the servers not reached: ${missingRow}`);
    t.notMatch(missingRow, /\d s\b/, 'no time for servers never checked');

    // One reported file cut short (as a disk that filled up would): not trusted, its server checked again.
    const cut = reported()[0];
    const cutName = read(join(out, cut)).servers[0].name;
    truncateSync(join(out, cut), 200);
    writeFileSync(starts, '');
    const resumed = await runCli([...args, '--resume', '--output', join(sweep, 'fleet.json')]);
    t.equal(resumed.code, 0, resumed.stderr);
    t.match(resumed.stderr, new RegExp(`--resume: .*${cut.replace(/\./g, '\\.')} is not a whole report: not trusted`));
    t.match(
      resumed.stderr,
      new RegExp(`--resume: ${done.length - 1} already reported in .*out, ${names.length - done.length + 1} to check`),
    );
    const startedAgain = new Set(readFileSync(starts, 'utf8').split('\n').filter(Boolean));
    t.same(
      [...startedAgain].sort(),
      names.filter((n) => !done.includes(n) || n === cutName).sort(),
      'only the servers not (wholly) reported were started again',
    );
    const final = read(join(sweep, 'fleet.json'));
    t.same(
      final.servers.map((s) => [s.name, s.report?.verdict?.implements]),
      names.map((n) => [n, 'yes']),
      'the final report holds every server',
    );
    t.equal(reported().length, names.length, 'and the folder a file per server');
    const again = await runCli(['merge', out, '--format', 'json']);
    t.equal(again.code, 0, `the folder merges as a fleet: ${again.stderr}`);
    t.equal((JSON.parse(again.stdout) as FleetJson).servers.length, names.length);

    // A report of another fleet in the folder (shared, or the fleet's file changed): not resumed, and said.
    const foreign = read(join(out, reported()[0]));
    foreign.fleet.digest = `sha256:${'0'.repeat(64)}`;
    writeFileSync(join(out, 'another-fleet.json'), JSON.stringify(foreign));
    const mixed = await runCli([...args, '--resume']);
    t.equal(mixed.code, 0, mixed.stderr);
    t.match(mixed.stderr, /--resume: 1 report in .*out is of another fleet .*not resumed/);
    t.match(mixed.stderr, new RegExp(`--resume: ${names.length} already reported in .*out, 0 to check`));
  },
);

t.test(
  'a matrix of single-server jobs: a server that cannot be started still leaves its JSON, and merge counts it as not checked',
  async (t) => {
    const good = join(dir, 'single-good.json');
    const dead = join(dir, 'single-dead.json');
    const run = await runCli([
      '--explore',
      '0',
      '--only',
      'pd-',
      '--timeout',
      '60000',
      '--format',
      'json',
      '--output',
      good,
      '--',
      'node',
      REFERENCE,
    ]);
    t.equal(run.code, 0, run.stderr);
    const gone = await runCli([
      '--format',
      'json',
      '--output',
      dead,
      '--report',
      `json=${join(dir, 'single-dead-too.json')}`,
      '--',
      'no-such-server-command-here',
    ]);
    t.equal(gone.code, 3);
    t.match(gone.stderr, /cannot check 'no-such-server-command-here': cannot start/);
    t.match(
      read(dead).servers,
      [{ name: 'single-dead', target: 'no-such-server-command-here', error: /^cannot be checked: cannot start/ }],
      'named after its file',
    );
    t.equal(read(join(dir, 'single-dead-too.json')).servers[0]?.name, 'single-dead-too');
    // Redirected from stdout (`> x.json`), it is named after the server's command.
    const printed = await runCli(['--format', 'json', '--', 'no-such-server-command-here']);
    t.equal((JSON.parse(printed.stdout) as FleetJson).servers[0]?.name, 'no-such-server-command-here');
    t.equal(
      (await runCli(['--', 'no-such-server-command-here'])).stdout,
      '',
      'the text format prints no record: stderr says it',
    );

    const merged = await runCli(['merge', good, dead, '--format', 'json']);
    t.equal(merged.code, 3, 'as a fleet with a server that cannot be started');
    const fleet = JSON.parse(merged.stdout) as FleetJson;
    t.same(
      fleet.servers.map((s) => [s.name, s.report ? 'report' : s.error?.slice(0, 19)]),
      [
        ['single-good', 'report'],
        ['single-dead', 'cannot be checked: '],
      ],
    );
  },
);
