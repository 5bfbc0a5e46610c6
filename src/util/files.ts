import { existsSync, statSync } from 'node:fs';

/** Whether `path` is a folder (a small module of its own: the CLI's output paths need it without loading the transports). */
export function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}
