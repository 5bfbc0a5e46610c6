// The fleet the sweep tests (issue 57) check, and how they read its reports: six servers whose names
// fill all three shards of a --shard k/3 run, written as an mcpServers file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureBundle, REFERENCE, ROOT } from '../helpers.js';
import type { CheckReport } from '../../src/generated/report.js';

export interface FleetJson {
  fleet: { file: string; size: number; digest: string; names?: string[] };
  shard?: { k: number; n: number };
  servers: Array<{ name: string; report?: CheckReport; error?: string; missing?: boolean; durationMs?: number }>;
}

export const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as FleetJson;

// Six servers whose names fill all three shards (charlie | bravo, delta | alpha, echo, foxtrot):
// a shard is the hash of a name, so another six names could leave one empty.
export const SIX = {
  alpha: ['node', REFERENCE],
  bravo: ['node', fixtureBundle('pd-full-descriptions--preamble')],
  charlie: ['node', fixtureBundle('pd-minimal-descriptions--full-schema-in-list')],
  delta: ['node', join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js')],
  echo: ['no-such-server-command-here'],
  foxtrot: ['node', REFERENCE],
};

/** Writes SIX as fleet.json in `dir` (each server's memory file beside it); returns its path. */
export function writeSixFleet(dir: string): string {
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
  return config;
}
