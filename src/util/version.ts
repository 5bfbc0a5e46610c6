import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

/** The package root: the nearest folder above this module with a package.json (bundled or not, at any depth). */
export const PACKAGE_ROOT = packageRoot(dirname(fileURLToPath(import.meta.url)));

function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

export const TOOL_NAME: string = pkg.name;
export const TOOL_VERSION: string = pkg.version;

/** The checker's config file, found in the working directory (the run) and recognised by name (the lint). */
export const CONFIG_FILE_NAME = `${TOOL_NAME}.config.json`;
