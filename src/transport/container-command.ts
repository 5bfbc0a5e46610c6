// A server command that starts a container (`docker run -i --rm mcp/github`, the way many MCP
// servers are published): every session over stdio is then a container of its own, seconds and
// hundreds of MB a start, and what it holds is the container runtime's, not in the command's
// process group where the checker reads memory from /proc. Said by the command's words, so the
// same command gets the same plan on every machine.
import { basename } from 'node:path';

/** The container runtimes whose `run` starts a container per invocation. */
const RUNTIMES = new Set(['docker', 'podman', 'nerdctl']);

/** Whether `command args…` starts a container: a runtime, and `run` as its first word that is not an option. */
export function startsContainer(command: string, args: readonly string[]): boolean {
  if (!RUNTIMES.has(basename(command).replace(/\.exe$/i, '').toLowerCase())) return false;
  // Global options come first (`docker --context ci run …`); those that take a value are given it with '='
  // or as the next word, which is not 'run' in practice.
  return args.find((arg) => !arg.startsWith('-')) === 'run';
}
