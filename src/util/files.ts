import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Whether `path` is a folder (a small module of its own: the CLI's output paths need it without loading the
 * transports).
 */
export function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/** Whether `command` can be started: a path to an executable, or a name found on PATH. */
export function runnable(command: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const executable = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (command.includes('/')) return executable(command);
  return (env.PATH ?? '').split(delimiter).some((dir) => dir && executable(join(dir, command)));
}
