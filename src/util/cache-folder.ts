// Where the CLI keeps what it may forget (V8's code of its bundle, token counts): the user's cache
// folder, as other tools keep theirs, never inside the installed package (a global install may not
// be writable, and a package's folder is no place for a user's data).
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * `$XDG_CACHE_HOME/mcp-pd-check` (an absolute path, as the XDG spec asks; a relative one is
 * ignored), else `%LOCALAPPDATA%\mcp-pd-check` on Windows, else `~/.cache/mcp-pd-check`;
 * undefined where there is no home to put it in (then nothing is kept).
 */
export function userCacheFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'mcp-pd-check');
  if (process.platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'mcp-pd-check');
  let home: string;
  try {
    home = env.HOME || homedir();
  } catch {
    return undefined;
  }
  return home && isAbsolute(home) ? join(home, '.cache', 'mcp-pd-check') : undefined;
}
