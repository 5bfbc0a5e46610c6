// An internal error's stack, in the files a reader can open: the CLI runs one minified bundle
// (dist/cli/main.cjs), and its frames say nothing until they are mapped back to src/**/*.ts by the
// bundle's source map (dist/cli/main.cjs.map, written by src/build/bundle-cli.mjs). Only read when
// something crashed: a run never pays for it.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, relative, resolve } from 'node:path';

/** A frame's file, line and column: `at f (/x/main.cjs:3:14)` or `at /x/main.cjs:3:14`. */
const FRAME = /(\(|at )([^()\s]+\.c?js):(\d+):(\d+)(\)?)/;

/**
 * The stack with every frame of a bundle that has a source map beside it (`<file>.map`) rewritten
 * to its source, relative to the package's root (`src/model/state.ts:47:18`); frames of other files,
 * and the whole stack when no map can be read, as they were.
 */
export function mappedStack(stack: string): string {
  const maps = new Map<string, SourceMap | undefined>();
  const mapOf = (file: string) => {
    if (!maps.has(file)) {
      try {
        maps.set(
          file,
          new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]),
        );
      } catch {
        maps.set(file, undefined);
      }
    }
    return maps.get(file);
  };
  return stack
    .split('\n')
    .map((line) =>
      line.replace(FRAME, (whole, open: string, file: string, row: string, col: string, close: string) => {
        // findEntry answers {} where no mapping covers the place.
        const entry: { originalSource?: string; originalLine?: number; originalColumn?: number } | undefined = mapOf(
          file,
        )?.findEntry(Number(row) - 1, Number(col) - 1);
        if (!entry?.originalSource || entry.originalLine === undefined) return whole;
        // The map names sources relative to itself (../../src/…): the package's root is two folders up.
        const source = resolve(dirname(file), entry.originalSource.replace(/^file:\/\//, ''));
        const root = resolve(dirname(file), '..', '..');
        return `${open}${relative(root, source)}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}${close}`;
      }),
    )
    .join('\n');
}

/** Where an error was thrown, in src/ when the bundle's map says so: its first mapped frame. */
export function thrownAt(err: unknown): string | undefined {
  if (!(err instanceof Error) || !err.stack) return undefined;
  const frames = mappedStack(err.stack).split('\n').slice(1);
  const at = /\(((?:src|checks|reports)\/[^)]+)\)|at ((?:src|checks|reports)\/\S+)/.exec(frames.join('\n'));
  return at ? (at[1] ?? at[2]) : undefined;
}
