// What a sweep (issue 57) settles before any server starts: the shard a server is in (stable as the
// fleet grows), the fleet's digest, a one-line usage error for --shard, --resume and merge, and the
// plan --explain-plan prints for the servers of a --server-config.
import t from 'tap';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE, runCli, tempDir } from './helpers.js';
import { fleetIdentity, parseShard, shardOf } from '../src/library/fleet-shard.js';
import { writeSixFleet } from './support/sweep-fleet.js';

const dir = tempDir();
const config = writeSixFleet(dir);

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
