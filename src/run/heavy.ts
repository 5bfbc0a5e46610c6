// What a server process costs decides the run's plan (DESIGN, "The session plan"). Over stdio every
// session is a server process. A heavy server holds much memory (a JVM, a Python server that loads
// a model, a Node server with a large bundle): the ten a run keeps alive at once at the most are
// gigabytes on a CI runner, so its run keeps at most three. A server costly to start burns CPU at
// every start (a Python server importing its libraries, a JVM, npx resolving a package): ten starts
// at once on a runner's two cores take ten times as long each, so its run starts two at a time.
// Both are said by what the probe held and used once it answered (from /proc) — memory, and CPU
// time, never wall time: the same server gets the same plan on a quiet and on a loaded machine.
import type { McpSession } from '../transport/session.js';
import { DEFAULT_SESSIONS } from './session-plan.js';

/** Resident memory (MB) of a server process, with what it started, from which the server is heavy. */
export const HEAVY_SERVER_MB = 150;

/**
 * CPU time (ms, user and system, with what it started) a server's start may take by its first
 * answer before it is costly to start: a plain Node server takes 150–400 ms here, one behind `serve` 300–450,
 * one through npx ~800 (npm's own start), a Python server importing its libraries or a JVM a second or more.
 */
export const COSTLY_START_CPU_MS = 600;

/** The most server processes a heavy server's run keeps alive at once. */
export const HEAVY_AT_ONCE = 3;

/** The most server processes a run of a server costly to start has starting at once (a runner's cores). */
export const COSTLY_STARTS_AT_ONCE = 2;

/** Why a server is heavy: the memory its probe held (MB), or a command that starts a container per session. */
export type Heaviness = { mb: number } | { container: true };

/**
 * What the probe's start cost, when it makes the server costly to start: CPU time, and the wall time to its first
 * answer (for the report).
 */
export interface CostlyStart {
  cpuMs: number;
  ms: number;
}

/**
 * Whether the server behind this probe session is heavy, where the run shares its sessions (stdio,
 * default --sessions: a raised --sessions asks for parallelism, and gets it), and why; undefined if not.
 */
export function heavyServer(probe: McpSession | undefined, sessions: number): Heaviness | undefined {
  if (!probe || sessions > DEFAULT_SESSIONS.stdio) return undefined;
  // A container's memory is not in the command's process group: it is heavy by what it starts.
  if (probe.serverStartsContainer()) return { container: true };
  const mb = probe.serverResidentMb();
  return mb !== undefined && mb >= HEAVY_SERVER_MB ? { mb: Math.round(mb) } : undefined;
}

/**
 * Whether the server behind this probe session is costly to start, where the run shares its
 * sessions (stdio, default --sessions), and what its start cost; undefined if not.
 */
export function costlyStart(probe: McpSession | undefined, sessions: number): CostlyStart | undefined {
  if (!probe || sessions > DEFAULT_SESSIONS.stdio) return undefined;
  const start = probe.serverStartCost();
  return start && start.cpuMs > COSTLY_START_CPU_MS
    ? { cpuMs: Math.round(start.cpuMs), ms: Math.round(start.wallMs) }
    : undefined;
}

/** What the report's cost says of a heavy server or one costly to start (schemas/report.schema.json, cost). */
export function weightFields(
  heavy: Heaviness | undefined,
  costly: CostlyStart | undefined,
): { heavyMb?: number; heavyContainer?: true; costlyStart?: CostlyStart & { startsAtOnce: number } } {
  return {
    ...(heavy && 'mb' in heavy ? { heavyMb: heavy.mb } : {}),
    ...(heavy && 'container' in heavy ? { heavyContainer: true as const } : {}),
    ...(costly ? { costlyStart: { ...costly, startsAtOnce: COSTLY_STARTS_AT_ONCE } } : {}),
  };
}
