// A server command that starts a container (`docker run -i --rm mcp/github`, the way many MCP
// servers are published): every session over stdio is then a container of its own, seconds and
// hundreds of MB a start, and what it holds is the container runtime's, not in the command's
// process group where the checker reads memory from /proc. Said by the command's words, so the
// same command gets the same plan on every machine.
import { basename } from 'node:path';

/** The container runtimes whose `run` starts a container per invocation. */
const RUNTIMES = new Set(['docker', 'podman', 'nerdctl']);

/** Global options of the runtimes that take a value as the next word (`docker --context ci run …`). */
const VALUED = new Set([
  '-c',
  '--context',
  '-H',
  '--host',
  '-l',
  '--log-level',
  '--config',
  '--tlscacert',
  '--tlscert',
  '--tlskey',
  '--connection',
  '--url',
  '--identity',
  '--root',
  '--runroot',
]);

/**
 * Whether `command args…` starts a container: a runtime, and `run` as its first word that is neither an option nor an
 * option's value.
 */
export function startsContainer(command: string, args: readonly string[]): boolean {
  if (
    !RUNTIMES.has(
      basename(command)
        .replace(/\.exe$/i, '')
        .toLowerCase(),
    )
  )
    return false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (VALUED.has(arg)) i++;
    else if (!arg.startsWith('-')) return arg === 'run';
  }
  return false;
}
