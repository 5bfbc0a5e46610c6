import type { Dirent } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { InputError } from '../core/input-error.js';

/**
 * A path the lint was given or found: a file to read, or one it refused to open and why. Only
 * regular files are ever opened; a symlink is followed only to a target inside the paths the lint
 * was given, so a linted folder cannot make the lint read (and print) a file elsewhere.
 */
export interface FoundPath {
  path: string;
  refused?: ReadProblem;
}

/** Why a path was not read: a code of lint-json-syntax, with its args. */
export interface ReadProblem {
  code:
    | 'not-regular-file'
    | 'link-outside'
    | 'link-loop'
    | 'link-dangling'
    | 'folder-unreadable'
    | 'too-large'
    | 'unreadable'
    | 'binary';
  args: Record<string, unknown>;
}

const GLOB_CHARS = /[*?[\]{}]/;
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

/** What kind of non-regular file this is, for the finding. */
function special(s: {
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string {
  if (s.isFIFO()) return 'a named pipe (FIFO)';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function inside(target: string, roots: readonly string[]): boolean {
  return roots.some((root) => target === root || target.startsWith(root.endsWith(sep) ? root : root + sep));
}

/** The folder part of a glob before its first wildcard ('tool_descriptions/*.json' → 'tool_descriptions'). */
function globBase(pattern: string): string {
  const parts = pattern.split(/[\\/]/);
  const fixed: string[] = [];
  for (const part of parts.slice(0, -1)) {
    if (GLOB_CHARS.test(part)) break;
    fixed.push(part);
  }
  return fixed.join('/') || '.';
}

class Collector {
  readonly found = new Map<string, FoundPath>();
  /** Real paths of the files taken, so a file reached twice (a link and its target) is linted once. */
  private readonly realFiles = new Set<string>();
  /** Real paths of folders already walked. */
  private readonly walked = new Set<string>();
  private readonly loops = new Set<string>();

  /** How many files the current plan's pattern matched (taken, refused or already taken). */
  matched = 0;

  constructor(private readonly roots: string[]) {}

  /** Each argument walks its folders afresh; files stay deduplicated across arguments. */
  startPlan(): void {
    this.walked.clear();
    this.matched = 0;
  }

  refuse(path: string, code: ReadProblem['code'], args: Record<string, unknown> = {}): void {
    this.matched++;
    if (!this.found.has(path)) this.found.set(path, { path, refused: { code, args } });
  }

  /**
   * One entry of a walk or a glob: a regular file is taken; a symlink is resolved and judged by
   * its target; anything else is reported, never opened. `want` says whether a file's name fits.
   */
  async entry(path: string, want: (path: string) => boolean, ancestors: readonly string[]): Promise<void> {
    let info;
    try {
      info = await lstat(path);
    } catch {
      return; // gone meanwhile
    }
    if (info.isSymbolicLink()) return this.link(path, want, ancestors);
    if (info.isDirectory()) return this.folder(path, want, ancestors);
    if (!want(path)) return;
    if (!info.isFile()) return this.refuse(path, 'not-regular-file', { kind: special(info) });
    await this.file(path, path);
  }

  /** Takes a file; `known` is its real path when the caller knows it (saves a system call per file). */
  private async file(path: string, real: string, known?: string): Promise<void> {
    this.matched++;
    const key = known ?? (await realpath(real).catch(() => real));
    if (this.realFiles.has(key)) return;
    this.realFiles.add(key);
    this.found.set(path, { path });
  }

  private async link(path: string, want: (path: string) => boolean, ancestors: readonly string[]): Promise<void> {
    let target: string;
    try {
      target = await realpath(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') {
        if (want(path)) this.loopAt(path);
        return;
      }
      if (want(path)) this.refuse(path, 'link-dangling');
      return;
    }
    if (!inside(target, this.roots)) {
      if (want(path) || !/\.[^/\\]*$/.test(basename(path))) this.refuse(path, 'link-outside');
      return;
    }
    let info;
    try {
      info = await stat(target);
    } catch {
      return;
    }
    if (info.isDirectory()) {
      if (ancestors.includes(target)) return this.loopAt(path);
      return this.folder(path, want, ancestors, target);
    }
    if (!want(path)) return;
    if (!info.isFile()) return this.refuse(path, 'not-regular-file', { kind: special(info) });
    await this.file(path, target);
  }

  private loopAt(path: string): void {
    this.matched++;
    if (this.loops.has(path)) return;
    this.loops.add(path);
    this.refuse(path, 'link-loop');
  }

  async folder(
    path: string,
    want: (path: string) => boolean,
    ancestors: readonly string[],
    known?: string,
  ): Promise<void> {
    const real = known ?? (await realpath(path).catch(() => path));
    if (this.walked.has(real)) return;
    this.walked.add(real);
    let entries: Dirent[];
    try {
      entries = (await readdir(path, { withFileTypes: true })).sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
      );
    } catch (err) {
      this.refuse(path, 'folder-unreadable', { reason: (err as NodeJS.ErrnoException).code ?? (err as Error).message });
      return;
    }
    const inner = [...ancestors, real];
    for (const dirent of entries) {
      if (SKIPPED_FOLDERS.has(dirent.name)) continue;
      const child = join(path, dirent.name);
      // A regular file needs no further look (the read checks its type again, on its descriptor).
      if (dirent.isFile()) {
        if (want(child)) await this.file(child, child, join(real, dirent.name));
        continue;
      }
      await this.entry(child, want, inner);
    }
  }
}

const isJson = (path: string) => path.toLowerCase().endsWith('.json');

/**
 * Expands files, folders (every *.json below them) and globs into the files to lint, in a stable
 * order. A path that does not exist, or a pattern that matches nothing, is an InputError.
 */
export async function collectPaths(args: string[], cwd: string): Promise<FoundPath[]> {
  const plans: Array<{ kind: 'path' | 'glob'; arg: string; abs: string; pattern?: string; root: string }> = [];
  for (const arg of args) {
    const abs = resolve(cwd, arg);
    const info = await stat(abs).catch(() => undefined);
    const exists = info !== undefined || (await lstat(abs).catch(() => undefined)) !== undefined;
    if (exists) {
      const folder = info?.isDirectory() ? abs : dirname(abs);
      plans.push({ kind: 'path', arg, abs, root: await realpath(folder).catch(() => folder) });
    } else if (GLOB_CHARS.test(arg)) {
      const base = resolve(cwd, globBase(arg));
      plans.push({ kind: 'glob', arg, abs: base, pattern: arg, root: await realpath(base).catch(() => base) });
    } else {
      throw new InputError(
        `no such file or folder: '${arg}' (give a tool_descriptions/ folder, a file, or a quoted glob such as '.well-known/mcp-tools/*.json')`,
      );
    }
  }
  const collector = new Collector(plans.map((p) => p.root));
  for (const plan of plans) {
    collector.startPlan();
    if (plan.kind === 'path') {
      const info = await lstat(plan.abs);
      // A file named on the command line is linted whatever its name; a folder gives its *.json.
      if (info.isDirectory()) await collector.folder(plan.abs, isJson, []);
      else await collector.entry(plan.abs, () => true, []);
      // A lint that read nothing would pass every check: a folder with no *.json is the caller's mistake.
      if (collector.matched === 0)
        throw new InputError(
          `the folder '${plan.arg}' holds no *.json file (lint reads every *.json below a folder; name a file to lint it whatever its name)`,
        );
      continue;
    }
    const pattern = isAbsolute(plan.pattern!) ? plan.pattern! : resolve(cwd, plan.pattern!);
    const matches = picomatch(pattern.split(sep).join('/'), { dot: false });
    const want = (path: string) => matches(path.split(sep).join('/'));
    if (await stat(plan.abs).catch(() => undefined)) await collector.folder(plan.abs, want, []);
    if (collector.matched === 0)
      throw new InputError(
        `the pattern '${plan.pattern}' matches no file (check the folder and the pattern; quote it, so that the shell leaves it to mcp-pd-check)`,
      );
  }
  return [...collector.found.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A path as shown in reports: relative to the working directory. */
export function displayPath(path: string, cwd: string): string {
  return relative(cwd, path) || basename(path);
}
