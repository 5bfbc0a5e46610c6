// Tools from npm that the project does not depend on (the official conformance suite, the MCP
// Inspector), each installed at test or bench time with a Node of its own into a cache folder
// inside node_modules: outside the project's PATH and dependency tree, kept between runs, removed
// with node_modules, never left in the OS temp folder.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../helpers.js';

const run = promisify(execFile);

/** The Node that the tools below run on (they want Node >= 22; npm's node package brings one). */
export const OUTSIDE_NODE = 'node@22.23.3';

export interface OutsideInstall {
  /** The folder the packages are installed in. */
  dir: string;
  /** Its own Node binary. */
  node: string;
  /** Why nothing could be installed (the npm registry cannot be reached), or undefined when installed. */
  unreachable?: string;
}

/**
 * Installs `packages` and OUTSIDE_NODE into `node_modules/.cache/mcp-pd-check/<name>` unless they are
 * there already (`ready` is a path, relative to the folder, that exists once installed). npm's own
 * exit says whether the registry answered: only then is a failure to install a failure.
 */
export async function installOutside(name: string, packages: string[], ready: string): Promise<OutsideInstall> {
  const dir = join(ROOT, 'node_modules', '.cache', 'mcp-pd-check', name);
  const node = join(dir, 'node_modules', '.bin', 'node');
  mkdirSync(dir, { recursive: true });
  if (existsSync(node) && existsSync(join(dir, ready))) return { dir, node };
  const env = { ...process.env };
  for (const key of Object.keys(env))
    if (key.startsWith('npm_') || key === 'NODE_OPTIONS' || key.startsWith('TAP')) delete env[key];
  try {
    await run('npm', ['ping'], { cwd: dir, env, timeout: 60_000 });
  } catch (err) {
    return {
      dir,
      node,
      unreachable: `the npm registry cannot be reached (${String((err as Error).message).split('\n')[0]})`,
    };
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--no-save', ...packages, OUTSIDE_NODE], {
    cwd: dir,
    env,
    timeout: 300_000,
  });
  return { dir, node };
}

/** The official MCP conformance suite, pinned. */
export const OFFICIAL_SUITE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';

/** Installs the official suite; `cli` is its entry point, run with `node`. */
export async function installOfficialSuite(): Promise<OutsideInstall & { cli: string }> {
  const cliPath = join('node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  const installed = await installOutside('official-suite', [OFFICIAL_SUITE], cliPath);
  return { ...installed, cli: join(installed.dir, cliPath) };
}
