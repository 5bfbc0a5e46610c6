// Many servers in one run: each checked as checkServer would, `jobs` at a time; a server that
// cannot be started or is badly configured is a row of its own, never the end of the run.
import type { CheckReport } from '../generated/report.js';
import { Redactor } from '../safety/redact.js';
import { TargetUnavailableError } from '../transport/types.js';
import { prepareCheck, type CheckServerOptions } from './check-server.js';
import type { ServerConfig } from './server-config.js';
import type { ServerOptions, Spelling } from './server-options.js';
import { commandWords } from './server-target.js';

export interface FleetEntry {
  name: string;
  /** The server as reports show it (its command or URL). */
  target?: string;
  report?: CheckReport;
  /** Why it could not be checked (not started, not reached, a bad entry). */
  error?: string;
  /** The error is the entry as written (an unresolved ${input:…}, no command), not the server's doing. */
  badEntry?: boolean;
  durationMs: number;
}

export interface FleetResult {
  file: string;
  shape: ServerConfig['shape'];
  entries: FleetEntry[];
}

/** What every server of the fleet is checked with: all options but how each is reached. */
export type FleetOptions = Omit<CheckServerOptions, keyof ServerOptions> & Pick<ServerOptions, 'timeoutMs' | 'startupTimeoutMs' | 'maxResponseMb'>;

/** Told as the fleet goes: how many servers are done, of how many, and which are being checked now. */
export type FleetProgress = (done: number, total: number, running: readonly string[]) => void;

export async function checkFleet(config: ServerConfig, options: FleetOptions, jobs = 1, spell?: Spelling, onProgress?: FleetProgress): Promise<FleetResult> {
  const entries: FleetEntry[] = new Array(config.servers.length);
  let next = 0;
  let done = 0;
  const running = new Set<string>();
  const tell = () => onProgress?.(done, config.servers.length, [...running]);
  const worker = async () => {
    for (let i = next++; i < config.servers.length; i = next++) {
      const server = config.servers[i]!;
      running.add(server.name);
      tell();
      await checkOne(i, server);
      running.delete(server.name);
      done++;
      tell();
    }
  };
  const checkOne = async (i: number, server: ServerConfig['servers'][number]) => {
    entries[i] = await checkEntry(server, options, spell);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, config.servers.length)) }, worker));
  return { file: config.file, shape: config.shape, entries };
}

/** One server of the fleet: its report, or why it was not checked (a bad entry, a server that cannot be reached). */
async function checkEntry(server: ServerConfig['servers'][number], options: FleetOptions, spell?: Spelling): Promise<FleetEntry> {
  if (server.problem !== undefined) return { name: server.name, error: server.problem, badEntry: true, durationMs: 0 };
  const started = performance.now();
  let target: string | undefined;
  try {
    const prepared = prepareCheck({ ...options, ...server.options, timeoutMs: options.timeoutMs, startupTimeoutMs: options.startupTimeoutMs, maxResponseMb: options.maxResponseMb }, spell);
    target = prepared.describe;
    const report = await prepared.run();
    return { name: server.name, target, report, durationMs: performance.now() - started };
  } catch (err) {
    if (!(err instanceof TargetUnavailableError) && !(err as { name?: string }).name?.endsWith('Error')) throw err;
    const why = err instanceof TargetUnavailableError ? `cannot be checked: ${err.message}` : (err as Error).message;
    return { name: server.name, ...(target ? { target } : {}), error: why, durationMs: performance.now() - started };
  }
}

/** Masks every server's secrets (the file's env, headers and isSecret values) and the environment's. */
export function fleetRedactor(config: ServerConfig): Redactor {
  const base = Redactor.forRun();
  const known = config.servers.flatMap((s) => [
    ...s.secrets,
    ...Redactor.forRun({ env: {}, serverEnv: s.options.env ?? {}, headers: s.options.headers ?? {}, serverArgs: commandWords(s.options.command), ...(s.options.url ? { url: safeUrl(s.options.url) } : {}) }).known(),
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
