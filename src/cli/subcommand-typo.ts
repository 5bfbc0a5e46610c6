import { distance } from '../util/distance.js';
import { runnable } from '../util/files.js';
import { UsageError } from './usage-error.js';

/**
 * `mcp-pd-check lnit …` would start `lnit` as a server and fail with "command not found" (exit
 * 3). A first word that is no program but is close to a subcommand is a usage error that says
 * what was probably meant.
 */
export function rejectMistypedSubcommand(
  word: string | undefined,
  subcommands: readonly string[],
  program: string,
): void {
  // A path is a server command, never a mistyped subcommand.
  if (!word || word.startsWith('-') || word.includes('/') || runnable(word)) return;
  // Checking is the default command: it has no word of its own (and 'check' names no program here).
  if (word === 'check')
    throw new UsageError(
      `'${word}' is not a program on PATH, and checking is ${program}'s default command: give the server's command (${program} -- node server.js) or --url; '${program} --help' shows the options`,
    );
  const close = subcommands
    .filter(
      (s) => s.startsWith(word) || word.startsWith(s) || distance(s, word) <= Math.max(2, Math.floor(s.length / 4)),
    )
    // The nearest first: a prefix, then the fewest edits.
    .sort((x, y) => Number(!x.startsWith(word)) - Number(!y.startsWith(word)) || distance(x, word) - distance(y, word));
  if (!close.length) return;
  throw new UsageError(
    `'${word}' is not a program on PATH; did you mean '${program} ${close[0]}'? (run '${program} --help' for the commands; to check a server, give its command: ${program} -- node server.js)`,
  );
}
