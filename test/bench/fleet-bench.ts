// The fleet rows of npm run bench (issue 57): a fleet of light servers (the reference server, 100 by
// default) checked on one machine with the default --jobs, then the same fleet in 4 shards run one
// after the other, and their merge (target ≤ 1 s). BENCH_FLEET=0 leaves them out (they take
// minutes); BENCH_FLEET_SIZE=N changes the fleet's size. Run alone: node dist/test/bench/fleet-bench.js.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, REFERENCE } from '../helpers.js';
import { measure, type Sample } from './measure.js';

export interface FleetRow {
  what: string;
  sample: Sample;
  target?: string;
  limitMs?: number;
}

const SHARDS = 4;

/** Verdicts by server, to see that the merge says what the one run said. */
function verdicts(file: string): string {
  const fleet = JSON.parse(readFileSync(file, 'utf8')) as {
    servers: Array<{ name: string; report?: { verdict?: { implements?: string } }; error?: string }>;
  };
  return JSON.stringify(fleet.servers.map((s) => [s.name, s.report?.verdict?.implements ?? s.error]).sort());
}

export function benchFleet(size = Number(process.env.BENCH_FLEET_SIZE ?? 100)): FleetRow[] {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-pd-fleet-bench-'));
  try {
    const config = join(dir, 'fleet.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: Object.fromEntries(
          Array.from({ length: size }, (_, i) => [`server-${i}`, { command: 'node', args: [REFERENCE] }]),
        ),
      }),
    );
    const one = measure([CLI, '--server-config', config, '--format', 'json', '--output', join(dir, 'one.json')]);
    const shards = Array.from({ length: SHARDS }, (_, i) =>
      measure([
        CLI,
        '--server-config',
        config,
        '--shard',
        `${i + 1}/${SHARDS}`,
        '--format',
        'json',
        '--output',
        join(dir, `shard-${i + 1}.json`),
      ]),
    );
    const files = shards.map((_, i) => join(dir, `shard-${i + 1}.json`));
    const merge = measure([
      CLI,
      'merge',
      ...files,
      '--format',
      'json',
      '--output',
      join(dir, 'merged.json'),
      '--report',
      `text=${join(dir, 'merged.txt')}`,
    ]);
    const same = verdicts(join(dir, 'one.json')) === verdicts(join(dir, 'merged.json'));
    const sum: Sample = {
      ms: shards.reduce((n, s) => n + s.ms, 0),
      rssMb: Math.max(...shards.map((s) => s.rssMb ?? 0)) || undefined,
      code: 0,
    };
    return [
      { what: `a fleet of ${size} reference servers, one machine, default --jobs (1)`, sample: one },
      {
        what: `  the same in ${SHARDS} shards, one after the other (${shards.map((s) => Math.round(s.ms / 1000)).join(' + ')} s)`,
        sample: sum,
      },
      {
        what: `  merge of the ${SHARDS} shard reports (json + text)${same ? '' : ' — VERDICTS DIFFER from the one run'}`,
        sample: merge,
        target: 'target ≤ 1 s',
        limitMs: 1000,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const r of benchFleet()) {
    const met = r.limitMs === undefined ? '' : r.sample.ms <= r.limitMs ? ' (met)' : ' (not met)';
    console.log(
      `  ${r.what.padEnd(72)} ${`${Math.round(r.sample.ms).toLocaleString('en-US')} ms`.padStart(11)}  peak ${r.sample.rssMb !== undefined ? `${Math.round(r.sample.rssMb)} MB` : 'n/a'}  ${r.target ?? ''}${met}`,
    );
  }
}
