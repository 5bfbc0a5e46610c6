// Sweeps larger than one machine (issue 57): --shard k/n on a CI matrix, merge of the shards'
// reports into one fleet report, and --out-dir/--resume for a job killed at its time limit.
import t from 'tap';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, fixtureBundle, REFERENCE, ROOT, runCli, tempDir, type CliRun } from './helpers.js';
import { fleetIdentity, parseShard, shardOf } from '../src/library/fleet-shard.js';
import { mergeFleetReports } from '../src/library/fleet-merge.js';
import { renderFleetMarkdown } from '../reports/fleet.js';
import type { CheckReport } from '../src/generated/report.js';

interface FleetJson {
  fleet: { file: string; size: number; digest: string; names?: string[] };
  shard?: { k: number; n: number };
  servers: Array<{ name: string; report?: CheckReport; error?: string; missing?: boolean; durationMs?: number }>;
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as FleetJson;
/** What a server's check came to: its verdict (or why not) and the status of every check. */
const outcome = (fleet: FleetJson) =>
  Object.fromEntries(
    fleet.servers.map((s) => [
      s.name,
      {
        verdict: s.report?.verdict?.implements ?? s.error?.replace(/\s+\(.*$/, ''),
        statuses: Object.fromEntries((s.report?.results ?? []).map((r) => [`${r.id} ${r.era ?? ''}`, r.status])),
      },
    ]),
  );

// Six servers whose names fill all three shards (charlie | bravo, delta | alpha, echo, foxtrot):
// a shard is the hash of a name, so another six names could leave one empty.
const SIX = {
  alpha: ['node', REFERENCE],
  bravo: ['node', fixtureBundle('pd-full-descriptions--preamble')],
  charlie: ['node', fixtureBundle('pd-minimal-descriptions--full-schema-in-list')],
  delta: ['node', join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js')],
  echo: ['no-such-server-command-here'],
  foxtrot: ['node', REFERENCE],
};
const dir = tempDir();
const config = join(dir, 'fleet.json');
writeFileSync(
  config,
  JSON.stringify({
    mcpServers: Object.fromEntries(
      Object.entries(SIX).map(([name, [command, ...args]]) => [
        name,
        { command, args, env: { MEMORY_FILE_PATH: join(dir, `${name}.jsonl`) } },
      ]),
    ),
  }),
);
// On a busy runner every request may take a minute, the bound a hang would exceed, so that no
// verdict here depends on the machine's speed.
const CHECK = ['--explore', '0', '--only', 'pd-', '--timeout', '60000', '--server-config', config, '--format', 'json'];
const shardFile = (k: number) => join(dir, `shard-${k}.json`);

t.test(
  '6 servers in 3 shards: each in exactly one, none empty; merged, the verdicts and exit code of one run; HTML and JUnit',
  async (t) => {
    // One after the other, as a matrix's jobs run on machines of their own: four runs at once on this
    // one would crowd the test files that run beside this one.
    const whole = await runCli([...CHECK, '--output', join(dir, 'whole.json')]);
    const shards: CliRun[] = [];
    for (const k of [1, 2, 3]) shards.push(await runCli([...CHECK, '--shard', `${k}/3`, '--output', shardFile(k)]));
    t.equal(whole.code, 3, `one run: the worst is a server that cannot be started (${whole.stderr})`);
    shards.forEach((run, i) =>
      t.match(run.stderr, new RegExp(`shard ${i + 1}/3: \\d of the 6 servers in`), `shard ${i + 1} says its part`),
    );
    const parts = [1, 2, 3].map((k) => read(shardFile(k)));
    const names = parts.flatMap((p) => p.servers.map((s) => s.name));
    t.same([...names].sort(), Object.keys(SIX), 'every server in exactly one shard');
    t.ok(
      parts.every((p) => p.servers.length > 0),
      `no shard empty (${parts.map((p) => p.servers.length).join(', ')})`,
    );
    parts.forEach((p, i) => {
      t.same(p.shard, { k: i + 1, n: 3 }, `shard ${i + 1} records k/n`);
      t.same(
        [p.fleet.size, p.fleet.digest],
        [6, read(join(dir, 'whole.json')).fleet.digest],
        `shard ${i + 1} records the fleet's size and digest`,
      );
      for (const s of p.servers) t.equal(shardOf(s.name, 3), i + 1, `${s.name} is where its name puts it`);
    });

    const html = join(dir, 'fleet.html');
    const junit = join(dir, 'fleet.xml');
    const merged = await runCli([
      'merge',
      ...[1, 2, 3].map(shardFile),
      '--format',
      'json',
      '--output',
      join(dir, 'merged.json'),
      '--report',
      `html=${html}`,
      '--report',
      `junit=${junit}`,
    ]);
    t.equal(merged.code, whole.code, `merge exits as the one run did: ${merged.stderr}`);
    t.match(merged.stderr, /merge: 6 servers of .*fleet\.json from 3 reports/);
    t.same(
      outcome(read(join(dir, 'merged.json'))),
      outcome(read(join(dir, 'whole.json'))),
      'the same verdicts and statuses, server by server',
    );
    t.same(outcome(read(join(dir, 'merged.json'))).alpha?.verdict, 'yes');
    t.same(
      read(join(dir, 'merged.json')).servers.map((s) => s.name),
      Object.keys(SIX),
      "in the file's order",
    );
    const page = readFileSync(html, 'utf8');
    t.equal((page.match(/<html/g) ?? []).length, 1, 'HTML: one document');
    t.equal((page.match(/<section id="server-\d+" class="server">/g) ?? []).length, 6, 'HTML: a section per server');
    const xml = readFileSync(junit, 'utf8');
    t.equal((xml.match(/<testsuite /g) ?? []).length, 6, 'JUnit: a suite per server, the one not checked too');
    t.match(
      xml,
      /<testsuite name="echo" tests="1" failures="0" errors="1"/,
      'the server that could not be started is an error there',
    );
    // SARIF that code scanning takes whatever the fleet's size: one run, each alert its server's, at its entry's line.
    const sarifFile = join(dir, 'fleet.sarif');
    await runCli(['merge', ...[1, 2, 3].map(shardFile), '--format', 'sarif', '--output', sarifFile]);
    const sarif = JSON.parse(readFileSync(sarifFile, 'utf8')) as {
      runs: Array<{
        results: Array<{
          message: { text: string };
          properties: { server: string };
          partialFingerprints: Record<string, string>;
          locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>;
        }>;
      }>;
    };
    t.equal(sarif.runs.length, 1, 'one run');
    const configLines = readFileSync(config, 'utf8').split('\n');
    const results = sarif.runs[0].results;
    t.ok(results.length > 0, `${results.length} results`);
    for (const r of results) {
      const line = configLines[r.locations[0].physicalLocation.region.startLine - 1] ?? '';
      if (!line.includes(JSON.stringify(r.properties.server)))
        t.fail(
          `${r.properties.server}'s alert is at line ${r.locations[0].physicalLocation.region.startLine}: ${line.slice(0, 80)}`,
        );
      if (!r.message.text.startsWith(`${r.properties.server}: `))
        t.fail(`its text names its server: ${r.message.text.slice(0, 80)}`);
    }
    t.pass('every alert at the line that names its server, its text beginning with it');
    // A step summary shows 1 MiB at most: the table stays whole, the sections that do not fit are said.
    const fleet = mergeFleetReports([1, 2, 3].map((k) => ({ source: shardFile(k), value: read(shardFile(k)) })));
    const full = renderFleetMarkdown(fleet, { color: false });
    const capped = renderFleetMarkdown(fleet, { color: false, maxBytes: Math.floor(Buffer.byteLength(full) / 2) });
    t.ok(
      Buffer.byteLength(capped) <= Buffer.byteLength(full) / 2,
      `within its budget (${Buffer.byteLength(capped)} of ${Buffer.byteLength(full)} bytes)`,
    );
    for (const name of Object.keys(SIX)) t.match(capped, new RegExp(`\\n\\| ${name} \\|`), `${name} is in the table`);
    t.match(
      capped,
      /_The sections of \d more servers? \(from \w+ on\) are left out: a GitHub step summary shows at most 1 MiB\./,
    );
    const text = await runCli(['merge', ...[1, 2, 3].map(shardFile)]);
    t.match(
      text.stdout,
      /^mcp-pd-check: 6 servers from .*fleet\.json \(an mcpServers file.*\), merged from 3 reports\n/,
      'the text report says it is a merge',
    );
  },
);

t.test('merge refuses the same server twice and shards of another fleet, and names a missing shard', async (t) => {
  // The same shard's report twice (its report beside its own --out-dir files): one server each.
  const twice = join(dir, 'shard-2-again.json');
  copyFileSync(shardFile(2), twice);
  const same = await runCli(['merge', shardFile(1), shardFile(2), twice, shardFile(3), '--format', 'json']);
  t.equal(same.code, 3, same.stderr);
  t.equal((JSON.parse(same.stdout) as FleetJson).servers.length, 6, 'the same entries of the same shard count once');
  // The same servers claimed by another shard (a report whose shard was mislabelled): refused.
  const claimed = read(shardFile(2));
  writeFileSync(twice, JSON.stringify({ ...claimed, shard: { k: 1, n: 3 } }));
  const duplicate = await runCli(['merge', shardFile(1), shardFile(2), twice]);
  t.equal(duplicate.code, 2);
  t.match(
    duplicate.stderr,
    /^mcp-pd-check: merge: server '(bravo|delta)' is in both .*shard-2\.json \(shard 2\/3\) and .*shard-2-again\.json \(shard 1\/3\)/,
  );
  t.equal(duplicate.stderr.trim().split('\n').length, 1, 'one line');
  t.equal(duplicate.stdout, '', 'no report');
  // The same shard reported differently (a job run twice): refused too.
  claimed.servers[0].durationMs = 1;
  writeFileSync(twice, JSON.stringify(claimed));
  t.match((await runCli(['merge', shardFile(2), twice])).stderr, /is in both .*\(shard 2\/3\), reported differently/);

  const other = join(dir, 'other.json');
  writeFileSync(
    other,
    JSON.stringify({
      mcpServers: {
        ...Object.fromEntries(Object.entries(SIX).map(([n]) => [n, { command: 'no-such-server-command-here' }])),
        golf: { command: 'no-such-server-command-here' },
      },
    }),
  );
  await runCli(['--server-config', other, '--shard', '2/3', '--format', 'json', '--output', join(dir, 'other-2.json')]);
  const mixed = await runCli(['merge', shardFile(1), join(dir, 'other-2.json'), shardFile(3)]);
  t.equal(mixed.code, 2);
  t.match(
    mixed.stderr,
    /merge: .*other-2\.json is of another fleet than .*shard-1\.json \(.*other\.json, digest sha256:[0-9a-f]{12}… vs .*fleet\.json, sha256:[0-9a-f]{12}…\)/,
  );

  const missing = await runCli(['merge', shardFile(1), shardFile(3), '--format', 'json']);
  t.equal(missing.code, 3, 'as the one run would, and at least 2: shard 3 holds the server that cannot be started');
  t.match(missing.stderr, /merge: 2\/3 not given \(2 servers not checked\)/);
  const report = JSON.parse(missing.stdout) as FleetJson;
  t.same(
    report.servers.filter((s) => s.missing).map((s) => s.name),
    ['bravo', 'delta'],
    "shard 2's servers are rows, not lost",
  );
  t.match(report.servers.find((s) => s.name === 'bravo')?.error, /its shard 2\/3 was not given to merge/);
  // The same fleet cut into another number of shards: refused, not reported as an incomplete shard.
  const cutTwice = join(dir, 'shard-1-of-2.json');
  writeFileSync(cutTwice, JSON.stringify({ ...read(shardFile(1)), shard: { k: 1, n: 2 }, servers: [] }));
  const otherN = await runCli(['merge', cutTwice, shardFile(2), shardFile(3)]);
  t.equal(otherN.code, 2);
  t.match(
    otherN.stderr,
    /merge: .*shard-2\.json \(shard 2\/3\) and .*shard-1-of-2\.json \(shard 1\/2\) cut the same fleet into 3 and 2 shards/,
  );
  // Not JSON at all, or JSON cut short: each one line, and the guess only where it fits.
  writeFileSync(join(dir, 'notes.txt'), 'hello world\n');
  const notJson = await runCli(['merge', join(dir, 'notes.txt')]);
  t.match(
    notJson.stderr,
    /^mcp-pd-check: merge: .*notes\.txt is not JSON \(.*\): give the JSON reports of --format json/,
  );
  t.equal(notJson.stderr.trim().split('\n').length, 1, 'one line');
  writeFileSync(join(dir, 'cut.json'), readFileSync(shardFile(1), 'utf8').slice(0, 200));
  t.match(
    (await runCli(['merge', join(dir, 'cut.json')])).stderr,
    /cut\.json is not whole JSON .*: was its job cut short while writing it\?/,
  );
  const onlyGood = await runCli(['merge', shardFile(1), '--format', 'json']);
  t.equal(onlyGood.code, 2, 'a merge that lacks shards exits 2 at least (shard 1 alone fails: 1)');
  t.match(onlyGood.stderr, /2\/3 not given .*\n.*3\/3 not given/);
});

t.test(
  'a shard is stable: adding a server to a fleet of 40 moves no other; the digest tells the fleets apart',
  async (t) => {
    const forty = Array.from({ length: 40 }, (_, i) => `io.example/server-${i}`);
    for (const n of [2, 3, 4, 7, 16]) {
      const before = forty.map((name) => shardOf(name, n));
      const after = [...forty, 'io.example/the-new-one'].map((name) => shardOf(name, n));
      t.same(after.slice(0, 40), before, `n=${n}: every one of the 40 stays in its shard`);
      t.ok(
        before.every((k) => k >= 1 && k <= n),
        `n=${n}: shards 1…${n}`,
      );
    }
    t.equal(
      fleetIdentity('mcpServers', forty).digest,
      fleetIdentity('mcpServers', [...forty].reverse()).digest,
      'the digest does not depend on the order',
    );
    t.not(
      fleetIdentity('mcpServers', forty).digest,
      fleetIdentity('mcpServers', [...forty, 'io.example/the-new-one']).digest,
      'a server more: another fleet',
    );
    t.same(parseShard('2/4'), { k: 2, n: 4 });
    for (const [args, said] of [
      [
        ['--server-config', config, '--shard', '4/3'],
        /--shard expects k\/n, a shard k of n with 1 ≤ k ≤ n ≤ 1000 .*got '4\/3'/,
      ],
      [['--server-config', config, '--shard', 'two'], /--shard expects k\/n/],
      [['--shard', '1/2', '--', 'node', REFERENCE], /--shard goes with --server-config FILE/],
      [['--server-config', config, '--resume'], /--resume goes with --out-dir DIR/],
      [['merge', join(dir, 'nope.json')], /merge: '.*nope\.json' does not exist/],
      // Wrong for every server: said once, before any server starts (not once per server, exit 3).
      [['--server-config', config, '--only', 'pd-minimal'], /no check is called 'pd-minimal'/],
      [['merge', config], /merge: .*fleet\.json is neither a fleet report/],
    ] as const) {
      const run = await runCli([...args]);
      t.equal(run.code, 2, args.join(' '));
      t.match(run.stderr, said);
      t.equal(run.stderr.trim().split('\n').length, 1, 'one line, no stack');
    }
  },
);

t.test(
  '--explain-plan with --server-config prints the plan each server is checked with, and starts nothing',
  async (t) => {
    const fleet = join(tempDir(), 'mcp.json');
    const started = join(tempDir(), 'started');
    writeFileSync(
      fleet,
      JSON.stringify({
        mcpServers: {
          one: { command: 'node', args: ['-e', `require('fs').writeFileSync(${JSON.stringify(started)}, 'x')`] },
          remote: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
        },
      }),
    );
    const run = await runCli(['--server-config', fleet, '--explain-plan']);
    t.equal(run.code, 0, run.stderr);
    t.match(run.stdout, /2 servers in .*mcp\.json: 1 over stdio, 1 over HTTP; .*Nothing was started/);
    t.match(run.stdout, /Session plan \(stdio, /);
    t.match(run.stdout, /Session plan \(http, /);
    t.notOk(existsSync(started), 'no server was started');
  },
);

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
