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

/**
 * Whether the server behind this probe session is heavy, where the run shares its sessions (stdio,
 * default --sessions: a raised --sessions asks for parallelism, and gets it). Its memory in MB, too.
 */
export function heavyServer(probe: McpSession | undefined, sessions: number): { heavy: boolean; mb?: number } {
  const mb = probe?.serverResidentMb();
  if (mb === undefined) return { heavy: false };
  return { heavy: sessions <= DEFAULT_SESSIONS.stdio && mb >= HEAVY_SERVER_MB, mb: Math.round(mb) };
}
