// How this run of the checker was started, for the commands a report or a summary prints: a line
// that says `mcp-pd-check init …` to someone who ran `node dist/cli/cli.js` from a clone is a
// "command not found". Printed as it can be pasted into the same shell, and, for a client's
// configuration (started from another folder), with absolute paths.
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { shellWord } from '../util/text.js';
import { TOOL_NAME } from '../util/version.js';

export interface Invocation {
  /** For the shell this run was started from: `mcp-pd-check`, `npx mcp-pd-check` or `node dist/cli/cli.js`. */
  shell: string;
  /** For a configuration read by another program in another folder: no relative path. */
  absolute: string;
}

export function invocation(
  argv: readonly string[] = process.argv,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Invocation {
  const script = argv[1] ?? '';
  if (basename(script) === TOOL_NAME || basename(script) === `${TOOL_NAME}.cmd`) {
    const folder = dirname(script);
    // npx puts the package's bin on PATH for this run only: the user's shell needs npx again. (npm_command is
    // inherited by whatever an npx process starts: it counts only for the bin itself.)
    const inProject = folder.split(sep).includes('node_modules');
    // A client starts its servers from a folder (and a PATH) of its own: the installed file, by its real path.
    const absolute = `node ${shellWord(realFile(resolve(cwd, script)))}`;
    const as = (shell: string): Invocation => ({ shell, absolute });
    if (folder.split(sep).includes('_npx') || (env.npm_command === 'exec' && inProject)) return as(`npx ${TOOL_NAME}`);
    const onPath = (env.PATH ?? '')
      .split(process.platform === 'win32' ? ';' : ':')
      .some((p) => p && resolve(p) === resolve(folder));
    // A project's own install (node_modules/.bin) is reached with npx from the project.
    if (inProject && !onPath) return as(`npx ${TOOL_NAME}`);
    return as(onPath ? TOOL_NAME : shellWord(resolve(cwd, script)));
  }
  if (!script) return same(TOOL_NAME);
  // `node path/to/cli.js`: the path as it was given, relative where it is below this folder.
  const full = isAbsolute(script) ? script : resolve(cwd, script);
  const near = relative(cwd, full);
  const shown = near && !near.startsWith('..') && !isAbsolute(near) ? near : full;
  return { shell: `node ${shellWord(shown)}`, absolute: `node ${shellWord(full)}` };
}

const same = (command: string): Invocation => ({ shell: command, absolute: command });

/** The file a bin links to (npm's bins are links, or on Windows wrappers: then the path as it is). */
function realFile(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
