// `merge`: the JSON reports of a sweep's shards (and of single servers, and the per-server files of
// --out-dir) joined into one fleet report, as if the fleet had run in one job. It refuses what
// cannot be one fleet — reports of different fleets (their digests differ), the same server twice —
// and names what is missing: a shard none of whose servers was given (`2/4 not given`), or the
// servers of a shard whose job died before it reported them.
import { InputError } from '../core/input-error.js';
import type { CheckReport } from '../generated/report.js';
import { isPlainObject } from '../protocol/payload.js';
import { fleetIdentity, shardOf, shardText, type Shard } from './fleet-shard.js';
import type { FleetEntry, FleetResult } from './fleet.js';
import { SHAPE_NAMES } from './server-config.js';

/** One report given to merge: where it came from (for messages) and its parsed JSON. */
export interface MergeInput {
  source: string;
  value: unknown;
}

interface FleetPart {
  source: string;
  file: string;
  shape: FleetResult['shape'];
  digest: string;
  size?: number;
  names?: string[];
  shard?: Shard;
  entries: FleetEntry[];
}

function isReport(value: unknown): value is CheckReport {
  return (
    isPlainObject(value) && isPlainObject(value.tool) && Array.isArray(value.results) && isPlainObject(value.summary)
  );
}

/** A fleet report (json format of --server-config, a shard's, an --out-dir file), or undefined when it is none. */
export function fleetPart(source: string, value: unknown): FleetPart | undefined {
  if (!isPlainObject(value) || !isPlainObject(value.fleet) || !Array.isArray(value.servers)) return undefined;
  const fleet = value.fleet;
  if (typeof fleet.digest !== 'string')
    throw new InputError(
      `merge: ${source} is a fleet report without a fleet digest (written by an earlier version): check the fleet again with this one`,
    );
  const shape =
    typeof fleet.shape === 'string' && (fleet.shape in SHAPE_NAMES || fleet.shape === 'reports')
      ? (fleet.shape as FleetResult['shape'])
      : undefined;
  if (shape === undefined || typeof fleet.file !== 'string')
    throw new InputError(`merge: ${source}: its fleet has no file or a shape this checker does not know`);
  const shard =
    isPlainObject(value.shard) && Number.isInteger(value.shard.k) && Number.isInteger(value.shard.n)
      ? { k: value.shard.k as number, n: value.shard.n as number }
      : undefined;
  const entries = value.servers.map((raw, i): FleetEntry => {
    if (!isPlainObject(raw) || typeof raw.name !== 'string')
      throw new InputError(`merge: ${source}: servers[${i}] has no name`);
    if (raw.report !== undefined && !isReport(raw.report))
      throw new InputError(
        `merge: ${source}: the report of server '${raw.name}' is not a report (no tool, results or summary)`,
      );
    return {
      name: raw.name,
      ...(typeof raw.target === 'string' ? { target: raw.target } : {}),
      ...(raw.report !== undefined ? { report: raw.report } : {}),
      ...(typeof raw.error === 'string'
        ? { error: raw.error }
        : raw.report === undefined
          ? { error: 'not checked' }
          : {}),
      ...(raw.badEntry === true ? { badEntry: true } : {}),
      ...(raw.skipped === true && raw.report === undefined ? { skipped: true } : {}),
      ...(typeof raw.note === 'string' ? { note: raw.note } : {}),
      durationMs: typeof raw.durationMs === 'number' ? raw.durationMs : 0,
    };
  });
  const names = Array.isArray(fleet.names) && fleet.names.every((n) => typeof n === 'string') ? fleet.names : undefined;
  return {
    source,
    file: fleet.file,
    shape,
    digest: fleet.digest,
    ...(typeof fleet.size === 'number' ? { size: fleet.size } : {}),
    ...(names ? { names } : {}),
    ...(shard ? { shard } : {}),
    entries,
  };
}

/** A single server's report (the json format of one run): a fleet part of one, named after its file. */
function singlePart(source: string, report: CheckReport): FleetPart {
  const name = source.replace(/^.*\//, '').replace(/\.json$/i, '');
  const target = report.target.command ?? report.target.url;
  return {
    source,
    file: source,
    shape: 'reports',
    digest: '',
    entries: [{ name, ...(target ? { target } : {}), report, durationMs: report.durationMs }],
  };
}

export function mergeFleetReports(inputs: readonly MergeInput[]): FleetResult {
  if (!inputs.length)
    throw new InputError("merge: give the JSON reports to join (the shards of a sweep, or single servers' reports)");
  const parts = inputs.map(({ source, value }) => {
    const part = fleetPart(source, value);
    if (part) return part;
    if (isReport(value)) return singlePart(source, value);
    throw new InputError(
      `merge: ${source} is neither a fleet report (--server-config … --format json) nor a server's JSON report (--format json)`,
    );
  });
  const fleets = parts.filter((p) => p.shape !== 'reports');
  const first = fleets[0];
  const other = fleets.find((p) => p.digest !== first.digest);
  if (first && other) {
    throw new InputError(
      `merge: ${other.source} is of another fleet than ${first.source} (${other.file}, digest ${other.digest.slice(0, 19)}… vs ${first.file}, ${first.digest.slice(0, 19)}…): merge the shards of one sweep only`,
    );
  }
  // Shards of one sweep share their n: cut otherwise, the same fleet would be split twice.
  const sharded = fleets.filter((p) => p.shard);
  const otherCut = sharded.find((p) => p.shard!.n !== sharded[0].shard!.n);
  if (otherCut) {
    throw new InputError(
      `merge: ${where(otherCut)} and ${where(sharded[0])} cut the same fleet into ${otherCut.shard!.n} and ${sharded[0].shard!.n} shards: merge the shards of one sweep only (one n)`,
    );
  }
  // A server twice: the same entry of the same shard (a shard's report beside its own --out-dir
  // files, one artifact) is one server; from two shards, or two different entries, it is refused.
  const seen = new Map<string, { part: FleetPart; entry: FleetEntry }>();
  const entries: FleetEntry[] = [];
  for (const part of parts) {
    for (const e of part.entries) {
      const before = seen.get(e.name);
      // (compared as text only on a collision: stringifying every report would cost a merge of 100 servers a third of
      // its time)
      const same =
        before !== undefined && sameShard(before.part, part) && JSON.stringify(before.entry) === JSON.stringify(e);
      if (same) continue;
      if (before)
        throw new InputError(
          `merge: server '${e.name}' is in both ${where(before.part)} and ${where(part)}${sameShard(before.part, part) ? ', reported differently' : ''}: a server is checked by one shard only (were two sweeps mixed, or a shard run twice?)`,
        );
      seen.set(e.name, { part, entry: e });
      entries.push(e);
    }
  }
  const names = fleets.find((p) => p.names)?.names;
  const n = fleets.find((p) => p.shard)?.shard?.n;
  const byName = new Map(entries.map((e) => [e.name, e]));
  const given = new Set(fleets.flatMap((p) => (p.shard ? [p.shard.k] : [])));
  const missing = (names ?? [])
    .filter((name) => !byName.has(name))
    .map((name) => ({ name, ...(n !== undefined ? { shard: shardOf(name, n) } : {}) }));
  const missingShards =
    n === undefined
      ? []
      : [...new Set(missing.map((m) => m.shard!))].sort((a, b) => a - b).map((k) => ({ k, n, whole: !given.has(k) }));
  const rows: FleetEntry[] = missing.map((m) => {
    const shard = m.shard !== undefined ? missingShards.find((s) => s.k === m.shard) : undefined;
    const why = !shard
      ? 'in none of the reports given to merge'
      : shard.whole
        ? `its shard ${shardText(shard)} was not given to merge`
        : `its shard ${shardText(shard)} did not report it (the job ended before it was checked?)`;
    return { name: m.name, error: `not checked: ${why}`, missing: true, durationMs: 0 };
  });
  // The fleet's order (the file's), then servers that name no fleet.
  const order = new Map((names ?? []).map((name, i) => [name, i]));
  const all = [...entries, ...rows].sort((a, b) => (order.get(a.name) ?? Infinity) - (order.get(b.name) ?? Infinity));
  const identity = !first
    ? fleetIdentity(
        'reports',
        all.map((e) => e.name),
      )
    : {
        size: names?.length ?? Math.max(first.size ?? 0, all.length),
        digest: first.digest,
        names: names ?? all.map((e) => e.name),
      };
  // Without the fleet's names (only --out-dir files given), what is missing is known by count only:
  // a row of its own all the same, so that no format (JUnit, SARIF) loses them.
  const unaccounted = names ? 0 : identity.size - all.length;
  if (unaccounted > 0) {
    all.push({
      name: `(${unaccounted} not named)`,
      missing: true,
      durationMs: 0,
      error: `not checked: ${unaccounted} of the fleet's ${identity.size} servers are in none of the reports given, and --out-dir files do not name the others; the run's own report or its shards' reports name them`,
    });
  }
  return {
    file: first?.file ?? '(server reports)',
    shape: first?.shape ?? 'reports',
    entries: all,
    identity,
    merged: inputs.length,
    ...(unaccounted > 0 ? { unaccounted } : {}),
    ...(missingShards.length
      ? {
          missingShards: missingShards.map((s) => ({
            k: s.k,
            n: s.n,
            whole: s.whole,
            servers: missing.filter((m) => m.shard === s.k).length,
          })),
        }
      : {}),
  };
}

function sameShard(a: FleetPart, b: FleetPart): boolean {
  return a.digest === b.digest && a.shard?.k === b.shard?.k && a.shard?.n === b.shard?.n;
}

function where(part: FleetPart): string {
  return part.shard ? `${part.source} (shard ${shardText(part.shard)})` : part.source;
}
