// Sweeps larger than one machine (issue 57): --shard k/n on a CI matrix, and merge of the shards'
// reports into one fleet report, with the verdicts and exit code of one run (in JSON, text, HTML,
// JUnit, SARIF and a step summary); merge refuses what does not add up to one fleet.
import t from 'tap';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, type CliRun } from './helpers.js';
import { shardOf } from '../src/library/fleet-shard.js';
import { mergeFleetReports } from '../src/library/fleet-merge.js';
import { renderFleetMarkdown } from '../reports/fleet.js';
import { read, SIX, writeSixFleet, type FleetJson } from './support/sweep-fleet.js';

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

const dir = tempDir();
const config = writeSixFleet(dir);
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
