import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { glob } from 'tinyglobby';
import { UsageError } from '../cli/usage-error.js';
import { isPlainObject } from '../pd/payload.js';
import { JsonSource } from './source.js';

/** What a linted file is; decided from its shape and folder (the four kinds). */
export type FileKind = 'tool-description' | 'tool-card' | 'dashdash-server' | 'initialize-result' | 'tools-list' | 'unknown';

export const KIND_NAMES: Record<FileKind, string> = {
  'tool-description': 'a tool description',
  'tool-card': 'a Tool Card',
  'dashdash-server': 'dashdash server metadata',
  'initialize-result': 'an initialize result with dashdash metadata',
  'tools-list': 'a saved tools/list result',
  unknown: 'an unrecognised JSON file',
};

export interface LintFile {
  /** Absolute path. */
  path: string;
  /** As shown in reports: relative to the working directory. */
  display: string;
  /** Why the file could not be read as text, if so. */
  readProblem?: string;
  source?: JsonSource;
  kind: FileKind;
}

/** Larger files are reported, not parsed: no real description file comes near this. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
const GLOB_CHARS = /[*?[\]{}]/;

/** Expands files, folders (every *.json below) and globs; a path that matches nothing is a usage error. */
export async function collectPaths(args: string[], cwd: string): Promise<string[]> {
  const found = new Set<string>();
  for (const arg of args) {
    const abs = resolve(cwd, arg);
    if (existsSync(abs)) {
      if (statSync(abs).isDirectory()) {
        for (const f of await glob('**/*.json', { cwd: abs, absolute: true, ignore: ['**/node_modules/**', '**/.git/**'], dot: true })) found.add(resolve(f));
      } else {
        found.add(abs);
      }
    } else if (GLOB_CHARS.test(arg)) {
      const matches = await glob(arg, { cwd, absolute: true, ignore: ['**/node_modules/**', '**/.git/**'] });
      if (!matches.length) throw new UsageError(`the pattern '${arg}' matches no file`);
      for (const f of matches) found.add(resolve(f));
    } else {
      throw new UsageError(`no such file or folder: '${arg}'`);
    }
  }
  return [...found].sort();
}

export function readLintFile(path: string, cwd: string): LintFile {
  const display = relative(cwd, path) || basename(path);
  let bytes: Buffer;
  try {
    if (statSync(path).size > MAX_FILE_BYTES) return { path, display, kind: 'unknown', readProblem: `the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB` };
    bytes = readFileSync(path);
  } catch (err) {
    return { path, display, kind: 'unknown', readProblem: `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  if (bytes.includes(0)) return { path, display, kind: 'unknown', readProblem: 'is a binary file, not JSON text' };
  const source = new JsonSource(bytes.toString('utf8'));
  return { path, display, source, kind: source.parsed ? classify(source.value, path) : 'unknown' };
}

export function classify(value: unknown, path: string): FileKind {
  if (!isPlainObject(value)) return 'unknown';
  if ('tool_card_version' in value) return 'tool-card';
  if (Array.isArray(value.tools)) return 'tools-list';
  if (isPlainObject(value.dashdash) && ('serverInfo' in value || 'protocolVersion' in value || 'capabilities' in value)) return 'initialize-result';
  if ('specVersion' in value && 'identity' in value) return 'dashdash-server';
  if (basename(dirname(path)) === 'tool_descriptions' || ('name' in value && 'inputSchema' in value)) return 'tool-description';
  return 'unknown';
}

/** The file name without .json: what a tool description's or card's `name` must equal. */
export function stem(file: LintFile): string {
  return basename(file.path).replace(/\.json$/i, '');
}
