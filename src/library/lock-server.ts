// `mcp-pd-check lock`: a server's tool surface as a lock file, and what changed since. Reads the
// server in every era it speaks (never calls a tool); compares without a clock: same surface,
// same bytes.
import { readFileSync } from 'node:fs';
import { InputError } from '../core/input-error.js';
import { buildLock, lockText, type ToolLock } from '../lock/lock-file.js';
import { diffLocks, type LockDiff } from '../lock/diff.js';
import { readSurface } from '../lock/read-surface.js';
import type { ProtocolChoice } from '../run/eras.js';
import { schemaProblemText } from '../rules/schema-problems.js';
import type { Era } from '../transport/era.js';
import { defaultOf } from './option-table.js';
import { LIBRARY_SPELLING, type ServerOptions, type Spelling } from './server-options.js';
import { serverTarget } from './server-target.js';
import { validateOptions } from './validate-options.js';
import { preloadTokenizer } from '../util/tokens.js';

export interface LockOutcome {
  lock: ToolLock;
  /** The file's bytes. */
  text: string;
  /** Full descriptions the resource did not give: locked without them. */
  unread: Array<{ era: Era; tool: string; why: string }>;
}

/**
 * The lock of a live server. Throws InputError for bad options, TargetUnavailableError when the
 * server cannot be reached.
 */
export async function lockServer(options: ServerOptions, spell: Spelling = LIBRARY_SPELLING): Promise<LockOutcome> {
  validateOptions(options, 'lock', spell);
  const { inEra, describe } = serverTarget(options, spell);
  // The tokenizer's tables load while the server starts.
  const tokenizer = preloadTokenizer(false);
  const surface = await readSurface(inEra, options.protocol ?? defaultOf<ProtocolChoice>('protocol'), describe);
  await tokenizer;
  const lock = await buildLock(surface.server, surface.listings);
  return { lock, text: lockText(lock), unread: surface.unread };
}

/**
 * A lock file as written, checked against the shipped schema; a file that is not one is an InputError naming the field.
 */
export function readLockFile(file: string, spell: Spelling = LIBRARY_SPELLING): { lock: ToolLock; text: string } {
  let text: string;
  let parsed: unknown;
  try {
    text = readFileSync(file, 'utf8');
    parsed = JSON.parse(text);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(
      code === 'ENOENT'
        ? `no lock file at '${file}': write one first with 'mcp-pd-check lock --out ${file} -- <server command>' (or ${spell.option('url')} URL)`
        : code
          ? `cannot read '${file}' (${code})`
          : `'${file}' is not valid JSON (${(err as Error).message})`,
    );
  }
  const problems = schemaProblemText('lock', parsed);
  if (problems.length)
    throw new InputError(
      `'${file}' is not a lock file of this checker: ${problems
        .slice(0, 3)
        .map((p) => p.replace(/\.$/, ''))
        .join('; ')}`,
    );
  return { lock: parsed as ToolLock, text };
}

/** What changed between a lock and the server's surface now. */
export function compareLock(locked: ToolLock, now: ToolLock): LockDiff {
  return diffLocks(locked, now);
}
