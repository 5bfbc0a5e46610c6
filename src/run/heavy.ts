// A heavy server: one whose process holds much memory (a JVM, a Python server that loads a model, a
// Node server with a large bundle). Over stdio every session is such a process, and the ten a run
// keeps alive at once at the most are gigabytes on a CI runner: a heavy server's run keeps at most
// three (DESIGN, "The session plan"). Said by the memory its probe holds once it answered (from
// /proc), not by time: the same server gets the same plan on a quiet and on a loaded machine.
import type { McpSession } from '../transport/session.js';
import { DEFAULT_SESSIONS } from './session-plan.js';

/** Resident memory (MB) of a server process, with what it started, from which the server is heavy. */
export const HEAVY_SERVER_MB = 150;

/** The most server processes a heavy server's run keeps alive at once. */
export const HEAVY_AT_ONCE = 3;

/** Why a server is heavy: the memory its probe held (MB), or a command that starts a container per session. */
export type Heaviness = { mb: number } | { container: true };

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
