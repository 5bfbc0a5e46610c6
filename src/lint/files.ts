import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { isPlainObject } from '../protocol/payload.js';
import { displayPath, type FoundPath, type ReadProblem } from './paths.js';
import { JsonSource } from './source.js';
import { CONFIG_FILE_NAME } from '../util/version.js';

/**
 * What a linted file is; decided from its shape and folder (the four kinds of metadata, and the checker's own config).
 */
export type FileKind =
  | 'tool-description'
  | 'tool-card'
  | 'dashdash-server'
  | 'dashdash-wrapped'
  | 'initialize-result'
  | 'tools-list'
  | 'checker-config'
  | 'tool-lock'
  | 'unknown';

export const KIND_NAMES: Record<FileKind, string> = {
  'tool-description': 'a tool description',
  'tool-card': 'a Tool Card',
  'dashdash-server': 'dashdash server metadata',
  'initialize-result': 'an initialize result (its instructions, its dashdash metadata)',
  'dashdash-wrapped': 'dashdash metadata in a { "dashdash": … } object',
  'tools-list': 'a saved tools/list result',
  'checker-config': 'an mcp-pd-check config file',
  'tool-lock': 'a tool lock file (mcp-pd-check lock)',
  unknown: 'an unrecognised JSON file',
};

export interface LintFile {
  /** Absolute path. */
  path: string;
  /** As shown in reports: relative to the working directory. */
  display: string;
  /** Why the file was not read as text, if so. */
  readProblem?: ReadProblem;
  source?: JsonSource;
  kind: FileKind;
}

/** Larger files are reported, not parsed: no real description file comes near this. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Reads one file for the lint. Opened non-blocking and checked through its own handle, so a
 * named pipe (or a file swapped for one after the walk) never blocks the lint, and only a regular
 * file is read. A problem is a finding on the file, never a stop.
 */
export async function readLintFile(found: FoundPath, cwd: string): Promise<LintFile> {
  const path = found.path;
  const display = displayPath(path, cwd);
  if (found.refused) return { path, display, kind: 'unknown', readProblem: found.refused };
  // Opened non-blocking and checked through its own descriptor: a named pipe (or a file swapped
  // for one after the walk) is never read, and the open itself never waits for a writer. Regular
  // files are then read synchronously: for thousands of small files that is several times faster
  // than the thread pool, and a regular file never blocks for long.
  let fd: number | undefined;
  let bytes: Buffer;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    const info = fstatSync(fd);
    if (!info.isFile())
      return {
        path,
        display,
        kind: 'unknown',
        readProblem: { code: 'not-regular-file', args: { kind: 'not a regular file' } },
      };
    if (info.size > MAX_FILE_BYTES)
      return {
        path,
        display,
        kind: 'unknown',
        readProblem: { code: 'too-large', args: { limit: `${MAX_FILE_BYTES / 1024 / 1024} MB` } },
      };
    bytes = readFileSync(fd);
  } catch (err) {
    return {
      path,
      display,
      kind: 'unknown',
      readProblem: {
        code: 'unreadable',
        args: { reason: (err as NodeJS.ErrnoException).code ?? (err as Error).message },
      },
    };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (bytes.includes(0)) return { path, display, kind: 'unknown', readProblem: { code: 'binary', args: {} } };
  // The checker's config is JSONC, as --config reads it (src/cli/config-file.ts), whatever its name: by its name, or
  // by what a JSONC reading shows; every other file is JSON.
  const text = bytes.toString('utf8');
  const source = new JsonSource(text, { comments: basename(path) === CONFIG_FILE_NAME });
  if (!source.parsed && basename(path) !== CONFIG_FILE_NAME) {
    const jsonc = new JsonSource(text, { comments: true });
    if (jsonc.parsed && looksLikeConfig(jsonc.value)) return { path, display, source: jsonc, kind: 'checker-config' };
  }
  return { path, display, source, kind: source.parsed ? classify(source.value, path) : 'unknown' };
}

/**
 * Settings only the checker's config holds (schemas/config.schema.json): a file of another name is
 * a config when it names that schema, or holds one of these and nothing the config does not know.
 */
const CONFIG_ONLY = new Set([
  'failOn',
  'minScore',
  'only',
  'skip',
  'timeoutMs',
  'startupTimeoutMs',
  'maxDuration',
  'maxResponse',
  'maxTokens',
  'maxTools',
  'safeCalls',
  'safeTools',
  'allowDestructive',
  'inheritEnv',
  'plugins',
  'rules',
  'baseline',
  'explore',
  'require',
  'cards',
  'reports',
]);
const CONFIG_KEYS = new Set([
  ...CONFIG_ONLY,
  '$schema',
  'command',
  'url',
  'headers',
  'cwd',
  'env',
  'idle',
  'seed',
  'sessions',
  'protocol',
  'transport',
  'verbose',
  'format',
  'output',
  'badge',
]);

function looksLikeConfig(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  if (typeof value.$schema === 'string' && /config\.schema\.json$/.test(value.$schema)) return true;
  const keys = Object.keys(value);
  return keys.some((k) => CONFIG_ONLY.has(k)) && keys.every((k) => CONFIG_KEYS.has(k));
}

export function classify(value: unknown, path: string): FileKind {
  if (!isPlainObject(value)) return 'unknown';
  if (basename(path) === CONFIG_FILE_NAME || looksLikeConfig(value)) return 'checker-config';
  if ('tool_card_version' in value) return 'tool-card';
  if ('lockVersion' in value || /\.lock\.json$/i.test(basename(path))) return 'tool-lock';
  if (Array.isArray(value.tools)) return 'tools-list';
  // dashdash metadata is saved in every form: an initialize result, a { "dashdash": … } object,
  // a bare object, or any object in a file named dashdash*.json. A tool description may carry a
  // (tool) dashdash object too, so it is recognised first.
  if (isPlainObject(value.dashdash) && ('serverInfo' in value || 'protocolVersion' in value || 'capabilities' in value))
    return 'initialize-result';
  // A saved initialize result without dashdash: its instructions are what a deferring client reads.
  if ('protocolVersion' in value && isPlainObject(value.serverInfo)) return 'initialize-result';
  if (basename(dirname(path)) === 'tool_descriptions' || ('name' in value && 'inputSchema' in value))
    return 'tool-description';
  if (isPlainObject(value.dashdash)) return 'dashdash-wrapped';
  if (('specVersion' in value && 'identity' in value) || /^dashdash[^/\\]*\.json$/i.test(basename(path)))
    return 'dashdash-server';
  return 'unknown';
}

/** The file name without .json: what a tool description's or card's `name` must equal. */
export function stem(file: LintFile): string {
  return basename(file.path).replace(/\.json$/i, '');
}
