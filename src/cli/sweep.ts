// --shard, --out-dir and --resume of a fleet run: the part of the fleet this job checks, each
// server's report written as soon as it is done, and what an earlier run of the same sweep wrote.
//
// Design (issue 57): an --out-dir file is a fleet JSON report of one server — the fleet's file,
// shape, size and digest, the shard, the server's entry — so that merge reads it as it reads a
// shard's report, and --resume trusts only a file that parses whole, is of this fleet (its digest)
// and holds a server of this run. It is written to a dot-file beside it and renamed over it: a
// reader, or a job killed mid-write, sees the old file or the new one, never half of one.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderFleetJson } from '../../reports/fleet.js';
import { fleetPart } from '../library/fleet-merge.js';
import { fleetIdentity, parseShard, shardOf, shardText } from '../library/fleet-shard.js';
import type { FleetEntry, SweepOptions } from '../library/fleet.js';
import type { ServerConfig } from '../library/server-config.js';
import { UsageError } from './usage-error.js';

export interface SweepFlags {
  shard?: string;
  outDir?: string;
  resume: boolean;
}

export interface Sweep {
  options: SweepOptions;
  /**
   * Lines for stderr before the run: what this job checks (the first: the report's own headline
   * says the same, so a text report on stdout leaves it out), what it resumes, what it distrusts.
   */
  lines: string[];
}

/**
 * A server's file in --out-dir: its name made safe for any file system, and a digest of the name so that two names
 * never share a file.
 */
export function outDirFile(name: string): string {
  const safe = name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[.]+/, '_')
    .slice(0, 80);
  return `${safe}-${createHash('sha256').update(name).digest('hex').slice(0, 8)}.json`;
}

/** The sweep of this run; `mask` masks what is written (the fleet's redactor). */
export function prepareSweep(flags: SweepFlags, config: ServerConfig, mask: (text: string) => string): Sweep {
  const shard = flags.shard !== undefined ? parseShard(flags.shard) : undefined;
  if (flags.resume && flags.outDir === undefined)
    throw new UsageError(
      "--resume goes with --out-dir DIR (the folder where an earlier run wrote its servers' reports)",
    );
  const identity = fleetIdentity(
    config.shape,
    config.servers.map((s) => s.name),
  );
  const mine = config.servers.filter((s) => !shard || shardOf(s.name, shard.n) === shard.k).map((s) => s.name);
  const lines = [
    shard
      ? `shard ${shardText(shard)}: ${mine.length} of the ${identity.size} servers in ${config.file}`
      : `${identity.size} server${identity.size === 1 ? '' : 's'} in ${config.file}`,
  ];
  if (shard && !mine.length)
    lines.push(`shard ${shardText(shard)} holds none of them: a shard is picked by the hash of each name`);
  if (flags.outDir === undefined) return { options: shard ? { shard } : {}, lines };
  const dir = flags.outDir;
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new UsageError(
      `--out-dir '${dir}' cannot be made (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  if (!statSync(dir).isDirectory()) throw new UsageError(`--out-dir '${dir}' is a file, not a folder`);
  const reported = flags.resume
    ? readReported(dir, identity.digest, new Set(mine), lines)
    : new Map<string, FleetEntry>();
  if (flags.resume)
    lines.push(`--resume: ${reported.size} already reported in ${dir}, ${mine.length - reported.size} to check`);
  const onEntry = (entry: FleetEntry) => {
    const text = mask(
      renderFleetJson(
        { file: config.file, shape: config.shape, identity, ...(shard ? { shard } : {}), entries: [entry] },
        undefined,
        { names: false },
      ),
    );
    const file = join(dir, outDirFile(entry.name));
    const temporary = join(dir, `.${outDirFile(entry.name)}.${process.pid}.tmp`);
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  };
  return { options: { ...(shard ? { shard } : {}), reported, onEntry }, lines };
}

/** The servers of this run already reported in `dir` by a run of the same fleet; what is not trusted is said. */
function readReported(
  dir: string,
  digest: string,
  mine: ReadonlySet<string>,
  lines: string[],
): Map<string, FleetEntry> {
  const reported = new Map<string, FleetEntry>();
  let others = 0;
  for (const file of readdirSync(dir).sort()) {
    const path = join(dir, file);
    // What a killed run left half-written: never read, and not left to pile up.
    if (/^\..*\.tmp$/.test(file)) {
      rmSync(path, { force: true });
      continue;
    }
    if (!file.endsWith('.json') || file.startsWith('.')) continue;
    let part: ReturnType<typeof fleetPart>;
    try {
      part = fleetPart(path, JSON.parse(readFileSync(path, 'utf8')));
    } catch {
      part = undefined;
    }
    if (!part) {
      lines.push(`--resume: ${path} is not a whole report: not trusted (its server is checked again)`);
      continue;
    }
    // Another fleet's (the folder was shared, or the fleet's file changed since): not resumed, and said.
    if (part.digest !== digest) {
      others++;
      continue;
    }
    for (const entry of part.entries)
      if (mine.has(entry.name) && (entry.report || entry.error !== undefined)) reported.set(entry.name, entry);
  }
  if (others)
    lines.push(
      `--resume: ${others} ${others === 1 ? 'report' : 'reports'} in ${dir} ${others === 1 ? 'is' : 'are'} of another fleet (its servers differ from this file's): not resumed, and replaced where a server of the same name is checked now — give a folder of its own to each fleet`,
    );
  return reported;
}
