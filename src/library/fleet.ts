// Many servers in one run: each checked as checkServer would, `jobs` at a time; a server that
// cannot be started or is badly configured is a row of its own, never the end of the run.
import { EXIT, exitCodeFor, type FailOn } from '../core/exit-codes.js';
import type { CheckReport } from '../generated/report.js';
import { Redactor } from '../safety/redact.js';
import { TargetUnavailableError } from '../transport/types.js';
import { prepareCheck, type CheckServerOptions } from './check-server.js';
import { fleetIdentity, shardOf, type FleetIdentity, type Shard } from './fleet-shard.js';
import type { ServerConfig } from './server-config.js';
import type { ServerOptions, Spelling } from './server-options.js';
import { commandWords } from './server-target.js';
import { liveChecksOf } from './check-selection.js';

export interface FleetEntry {
  name: string;
  /** The server as reports show it (its command or URL). */
  target?: string;
  report?: CheckReport;
  /** Why it could not be checked (not started, not reached, a bad entry). */
  error?: string;
  /** The error is the entry as written (an unresolved ${input:…}, no command), not the server's doing. */
  badEntry?: boolean;
  /** Not checked by intent (`error` says why: a registry entry marked deleted): exit 0 for it. */
  skipped?: boolean;
  /** What was chosen among what the entry offers (a registry list). */
  note?: string;
  /** Taken from an earlier run's --out-dir (--resume), not checked again. */
  resumed?: boolean;
  /** A merge: a server of the fleet that none of the reports holds (its shard not given, or cut short). */
  missing?: boolean;
  durationMs: number;
}

export interface FleetResult {
  file: string;
  /** `reports`: a merge of single-server reports that name no fleet. */
  shape: ServerConfig['shape'] | 'reports';
  entries: FleetEntry[];
  /** The whole fleet (every shard's servers): its size, digest and names. */
  identity: FleetIdentity;
  /** The part of the fleet this run checked (--shard k/n). */
  shard?: Shard;
  /** A merge: shards with servers none of the reports holds (`whole`: the shard's report was not given at all). */
  missingShards?: Array<Shard & { whole: boolean; servers: number }>;
  /** A merge of reports that do not list the fleet's names: how many of its servers none of them holds. */
  unaccounted?: number;
  /** A merge: how many reports it joined. */
  merged?: number;
}

/** What a sweep adds to a fleet run: a part of it, what an earlier run reported, a hook per server done. */
export interface SweepOptions {
  shard?: Shard;
  /** Servers already reported (--resume): their entries join the result, and they are not checked. */
  reported?: ReadonlyMap<string, FleetEntry>;
  /** Told as soon as a server is done (--out-dir writes its report then). */
  onEntry?: (entry: FleetEntry) => void;
}

/** What every server of the fleet is checked with: all options but how each is reached. */
export type FleetOptions = Omit<CheckServerOptions, keyof ServerOptions> &
  Pick<ServerOptions, 'timeoutMs' | 'startupTimeoutMs' | 'maxResponseMb'>;

/** Told as the fleet goes: how many servers are done, of how many, and which are being checked now. */
export type FleetProgress = (done: number, total: number, running: readonly string[]) => void;

/** Options wrong for every server (a selection of checks that names no check): said once, before any server starts. */
export function validateFleetOptions(options: FleetOptions): void {
  liveChecksOf(options);
}

export async function checkFleet(
  whole: ServerConfig,
  options: FleetOptions,
  jobs = 1,
  spell?: Spelling,
  onProgress?: FleetProgress,
  sweep: SweepOptions = {},
): Promise<FleetResult> {
  validateFleetOptions(options);
  const identity = fleetIdentity(
    whole.shape,
    whole.servers.map((s) => s.name),
  );
  const { shard, reported } = sweep;
  const mine = shard ? whole.servers.filter((s) => shardOf(s.name, shard.n) === shard.k) : whole.servers;
  const entries: FleetEntry[] = mine
    .map((s) => reported?.get(s.name))
    .filter((e): e is FleetEntry => e !== undefined)
    .map((e) => ({ ...e, resumed: true }));
  const config = { ...whole, servers: mine.filter((s) => !reported?.has(s.name)) };
  let next = 0;
  let done = 0;
  const running = new Set<string>();
  const tell = () => onProgress?.(done, config.servers.length, [...running]);
  const worker = async () => {
    for (let i = next++; i < config.servers.length; i = next++) {
      const server = config.servers[i];
      running.add(server.name);
      tell();
      await checkOne(i, server);
      running.delete(server.name);
      done++;
      tell();
    }
  };
  const checkOne = async (_i: number, server: ServerConfig['servers'][number]) => {
    const entry = await checkEntry(server, options, spell);
    entries.push(entry);
    sweep.onEntry?.(entry);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, config.servers.length)) }, worker));
  // In the file's order, whatever order they ended in.
  const order = new Map(mine.map((s, i) => [s.name, i]));
  entries.sort((a, b) => order.get(a.name)! - order.get(b.name)!);
  return { file: whole.file, shape: whole.shape, entries, identity, ...(shard ? { shard } : {}) };
}

/**
 * The exit code of a fleet, as of one run: the worst of its servers' (a report by --fail-on, a bad
 * entry 2, a server that could not be started or reached 3, one skipped by intent 0); a merge that
 * lacks servers is 2 at least.
 */
export function fleetExitCode(fleet: FleetResult, failOn: FailOn = 'error', minScore?: number): number {
  const codes = fleet.entries.map((e) =>
    e.report
      ? exitCodeFor(e.report, failOn, minScore)
      : e.skipped
        ? EXIT.ok
        : e.badEntry || e.missing
          ? EXIT.usage
          : EXIT.unreachable,
  );
  return Math.max(EXIT.ok, ...codes, fleet.unaccounted ? EXIT.usage : EXIT.ok);
}

/** One server of the fleet: its report, or why it was not checked (a bad entry, a server that cannot be reached). */
async function checkEntry(
  server: ServerConfig['servers'][number],
  options: FleetOptions,
  spell?: Spelling,
): Promise<FleetEntry> {
  if (server.skipped !== undefined) return { name: server.name, error: server.skipped, skipped: true, durationMs: 0 };
  if (server.problem !== undefined)
    return {
      name: server.name,
      error: server.problem,
      ...(server.unreachable ? {} : { badEntry: true }),
      durationMs: 0,
    };
  const started = performance.now();
  let target: string | undefined;
  try {
    const prepared = prepareCheck(
      {
        ...options,
        ...server.options,
        timeoutMs: options.timeoutMs,
        startupTimeoutMs: options.startupTimeoutMs,
        maxResponseMb: options.maxResponseMb,
      },
      spell,
    );
    target = prepared.describe;
    const report = await prepared.run();
    return {
      name: server.name,
      target,
      report,
      ...(server.note ? { note: server.note } : {}),
      durationMs: performance.now() - started,
    };
  } catch (err) {
    if (!(err instanceof TargetUnavailableError) && !(err as { name?: string }).name?.endsWith('Error')) throw err;
    const why = err instanceof TargetUnavailableError ? `cannot be checked: ${err.message}` : (err as Error).message;
    return {
      name: server.name,
      ...(target ? { target } : {}),
      error: why,
      ...(server.note ? { note: server.note } : {}),
      durationMs: performance.now() - started,
    };
  }
}

/** Masks every server's secrets (the file's env, headers and isSecret values) and the environment's. */
export function fleetRedactor(config: ServerConfig): Redactor {
  const base = Redactor.forRun();
  const known = config.servers.flatMap((s) => [
    ...s.secrets,
    ...Redactor.forRun({
      env: {},
      serverEnv: s.options.env ?? {},
      headers: s.options.headers ?? {},
      serverArgs: commandWords(s.options.command),
      ...(s.options.url ? { url: safeUrl(s.options.url) } : {}),
    }).known(),
  ]);
  return new Redactor([...base.known(), ...known]);
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
