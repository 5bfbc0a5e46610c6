// Token counts kept between runs. Loading the tokenizer's tables costs ~0.2–0.3 s of CPU, more than
// the rest of a small check run's own work over HTTP, while a count never changes: a CI gate that
// checks an unchanged server counts the same texts on every run. The CLI keeps the counts beside
// its code cache (src/cli/boot.ts), by a digest of the text, never the text itself (descriptions
// can hold anything). A run that finds every count it needs does not load the tokenizer at all.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The most counts kept: the least recently used go first (~40 bytes each on disk). */
const KEPT = 20_000;

let file: string | undefined;
let counts: Map<string, number> | undefined;
let added = false;

/** Keeps counts in this folder from now on (the CLI's; the library keeps none unless asked). */
export function useTokenCountCache(folder: string, encoding: string): void {
  file = join(folder, `tokens-${encoding}.json`);
  counts = undefined;
  added = false;
}

/** Whether counts are kept between runs and some are: then loading the tokenizer ahead is a waste. */
export function hasKeptCounts(): boolean {
  return loaded().size > 0;
}

const digest = (text: string): string => createHash('sha256').update(text).digest('base64url').slice(0, 22);

/** The count kept for this text, if any. */
export function keptCount(text: string): number | undefined {
  if (!file) return undefined;
  const kept = loaded();
  const key = digest(text);
  const count = kept.get(key);
  if (count !== undefined) {
    // Used again: it moves to the end, where the last to be dropped are.
    kept.delete(key);
    kept.set(key, count);
  }
  return count;
}

/** Keeps a count made in this run; written when the process exits. */
export function keepCount(text: string, count: number): void {
  if (!file) return;
  const kept = loaded();
  kept.set(digest(text), count);
  if (!added) process.once('exit', save);
  added = true;
}

function loaded(): Map<string, number> {
  if (counts) return counts;
  counts = new Map();
  if (!file) return counts;
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    // Anything else (a broken or foreign file) is as good as none: it is replaced at exit.
    if (Array.isArray(saved)) {
      for (const entry of saved) {
        if (Array.isArray(entry) && typeof entry[0] === 'string' && Number.isSafeInteger(entry[1]) && entry[1] >= 0)
          counts.set(entry[0], entry[1] as number);
      }
    }
  } catch {
    // No file yet, or one that cannot be read.
  }
  return counts;
}

function save(): void {
  if (!file || !counts) return;
  try {
    const entries = [...counts].slice(-KEPT);
    mkdirSync(join(file, '..'), { recursive: true });
    // Written whole, then renamed: runs that end together never leave half a file.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, JSON.stringify(entries));
    renameSync(partial, file);
  } catch {
    // A folder this user cannot write: the next run counts again, with the same result.
  }
}
