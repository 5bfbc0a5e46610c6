// Loading plugins (docs/plugins.md): from the options alone — `plugins` in the config file, --plugin,
// `plugins` in the library's options — never because a server, a report, a lock or a folder under
// lint names one. A path is relative to where it was given; a package name is resolved from the
// project, as Node resolves it there. What goes wrong is one line that names the plugin (exit 2).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError } from '../core/input-error.js';
import { isPlugin, pluginChecks, type Plugin } from '../core/plugin.js';
import type { LiveCheck } from '../run/check.js';
import type { LintCheck } from '../lint/check.js';
import { TOOL_NAME } from '../util/version.js';

/** A plugin as the library's options give it: a module to load (a path or a package name), or the plugin itself. */
export type PluginSpec = string | Plugin<unknown> | LoadedPlugin;

/** A plugin loaded from its module. */
export interface LoadedPlugin {
  plugin: Plugin<unknown>;
  /** What named it (the path or package as given). */
  given: string;
  /** Its module's file. */
  file: string;
}

/** The checks of the plugins, live and lint, namespaced (`<plugin>/<check>`). */
export interface PluginCheckSets {
  live: LiveCheck[];
  lint: LintCheck[];
}

/** Loads every plugin named by a module (paths relative to `from`, packages resolved from it); plugin objects pass through. */
export async function loadPlugins(
  specs: readonly PluginSpec[] = [],
  from = process.cwd(),
): Promise<Array<Plugin<unknown> | LoadedPlugin>> {
  const out: Array<Plugin<unknown> | LoadedPlugin> = [];
  for (const spec of specs) out.push(typeof spec === 'string' ? await loadPlugin(spec, from) : spec);
  return out;
}

/** The checks of loaded plugins; two plugins of one name, or a plugin given as a module name, are an InputError. */
export function checksOfPlugins(plugins: readonly PluginSpec[] = []): PluginCheckSets {
  const sets: PluginCheckSets = { live: [], lint: [] };
  const names = new Map<string, string>();
  for (const spec of plugins) {
    if (typeof spec === 'string')
      throw new InputError(
        `plugin '${spec}' is not loaded: await loadPlugins([...]) first, or use checkServer or lint, which load them`,
      );
    const loaded = 'plugin' in spec ? spec : undefined;
    const plugin = loaded?.plugin ?? (spec as Plugin<unknown>);
    const given = loaded?.given ?? `the plugin object '${String(plugin.name)}'`;
    const before = names.get(plugin.name);
    if (before !== undefined)
      throw new InputError(
        `two plugins are named '${plugin.name}' (${before} and ${given}): a plugin's name is its checks' namespace, so it must be unique`,
      );
    names.set(plugin.name, given);
    for (const check of pluginChecks(plugin, loaded?.file)) {
      if (check.needs === 'folder') sets.lint.push(check);
      else sets.live.push(check);
    }
  }
  return sets;
}

/** Where the CLI's bin runs the bundle (a vm.Script, which cannot import on Node 20), it gives the import to use. */
const IMPORT = Symbol.for('mcp-pd-check.import');

/**
 * Node's import of a module by URL: the CLI bin's, else Node's own. Not an import() here: the CLI's
 * bundle routes only imports of quoted names (src/build/bundle-cli.mjs).
 */
function importModule(url: string): Promise<unknown> {
  const routed = (globalThis as Record<symbol, unknown>)[IMPORT] as
    ((specifier: string) => Promise<unknown>) | undefined;
  return routed ? routed(url) : nodeImport(url);
}

/**
 * Node's own import of a computed URL (the library, outside the CLI's bin). Its body is a constant, never text from
 * outside; it is written in two pieces (which the bundler does not join) so that the CLI's bundle, which refuses an
 * import() it cannot route, does not take it for one (it never runs there: the bin routes every import).
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- a constant body (see above)
const nodeImport = new Function('specifier', ['return im', 'port(specifier)'].join('')) as (
  specifier: string,
) => Promise<unknown>;

/** What a report's options say of plugins and levels: the plugins that ran (name, version) and the user's rules. */
export function pluginOptions(options: { plugins?: readonly PluginSpec[]; rules?: Record<string, unknown> }): {
  plugins?: Array<{ name: string; version: string }>;
  rules?: Record<string, 'off' | 'warn' | 'error' | ['off' | 'warn' | 'error', Record<string, unknown>]>;
} {
  const plugins = (options.plugins ?? []).flatMap((p) =>
    typeof p === 'string'
      ? []
      : [{ name: ('plugin' in p ? p.plugin : p).name, version: ('plugin' in p ? p.plugin : p).version }],
  );
  const rules = options.rules && Object.keys(options.rules).length ? { ...options.rules } : undefined;
  return {
    ...(plugins.length ? { plugins } : {}),
    ...(rules ? { rules: rules as Record<string, 'off' | 'warn' | 'error'> } : {}),
  };
}

async function loadPlugin(given: string, from: string): Promise<LoadedPlugin> {
  const file = resolvePluginModule(given, from);
  let module: { default?: unknown };
  try {
    module = (await importModule(pathToFileURL(file).href)) as { default?: unknown };
  } catch (err) {
    // The plugin's own definePlugin said what is wrong with it (one line that names it): as it is.
    if ((err as Error)?.name === 'InputError') throw new InputError((err as Error).message);
    throw new InputError(`plugin '${given}': importing ${file} failed: ${firstLine(err, file)}`);
  }
  const plugin = module.default;
  if (!isPlugin(plugin)) {
    throw new InputError(
      `plugin '${given}' exports no plugin: its default export must be definePlugin({ name, version, apiVersion, checks }) from ${TOOL_NAME}/plugin (${file})`,
    );
  }
  return { plugin, given, file };
}

/** The file of a plugin's module: a path (relative to `from`), or a package installed where the project is. */
function resolvePluginModule(given: string, from: string): string {
  if (!given.trim())
    throw new InputError('a plugin was given as an empty name: give a path (./my-plugin.js) or a package name');
  if (given.startsWith('.') || isAbsolute(given)) {
    const file = resolve(from, given);
    if (!existsSync(file) || statSync(file).isDirectory()) {
      const index = join(file, 'package.json');
      if (existsSync(index)) return packageEntry(file, given);
      throw new InputError(`plugin '${given}': there is no file ${file} (a path is relative to ${from})`);
    }
    return file;
  }
  const [scope, name, ...subpath] = given.split('/');
  const pkg = scope.startsWith('@') ? `${scope}/${name}` : scope;
  const rest = scope.startsWith('@') ? subpath : [name, ...subpath].filter((p): p is string => p !== undefined);
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const root = join(dir, 'node_modules', pkg);
    if (existsSync(join(root, 'package.json'))) return rest.length ? subpathOf(root, given) : packageEntry(root, given);
    if (dirname(dir) === dir) break;
  }
  throw new InputError(
    `plugin '${given}' is not installed where the project is (no node_modules/${pkg} from ${from} up): npm install --save-dev ${pkg}, or give its path (./...)`,
  );
}

/** A package's entry for `import`: exports '.' (import, node or default), else main, else index.js. */
function packageEntry(root: string, given: string): string {
  let pkg: { exports?: unknown; main?: unknown };
  try {
    pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as typeof pkg;
  } catch (err) {
    throw new InputError(`plugin '${given}': its package.json cannot be read (${firstLine(err)})`);
  }
  const entry = importTarget(pkg.exports) ?? (typeof pkg.main === 'string' ? pkg.main : 'index.js');
  const file = resolve(root, entry);
  if (!existsSync(file))
    throw new InputError(`plugin '${given}': its entry ${file} does not exist (package.json exports or main)`);
  return file;
}

/** The file an `exports` field gives `import` for the package itself. */
function importTarget(exports: unknown): string | undefined {
  if (typeof exports === 'string') return exports;
  if (typeof exports !== 'object' || exports === null) return undefined;
  const record = exports as Record<string, unknown>;
  const dot = '.' in record ? record['.'] : Object.keys(record).some((k) => k.startsWith('.')) ? undefined : record;
  if (typeof dot === 'string') return dot;
  if (typeof dot !== 'object' || dot === null) return undefined;
  for (const condition of ['import', 'node', 'default']) {
    const target = importTarget((dot as Record<string, unknown>)[condition]);
    if (target) return target;
  }
  return undefined;
}

/** A subpath of a package (`pkg/rules`), as Node's resolution from the project finds it. */
function subpathOf(root: string, given: string): string {
  try {
    return createRequire(join(root, '..', 'noop.js')).resolve(given);
  } catch (err) {
    throw new InputError(`plugin '${given}' cannot be resolved: ${firstLine(err)}`);
  }
}

/**
 * An error in one line, with where it happened: the first place in a plugin's file its stack names,
 * else (a syntax error, whose stack is Node's own) the place Node reports when the module is imported alone.
 */
function firstLine(err: unknown, file?: string): string {
  const message = err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  const stack = err instanceof Error ? (err.stack ?? '') : '';
  let at = /(?:^|[\s(])(?:file:\/\/)?(\/[^\s:()]+\.[cm]?js:\d+)/m.exec(stack)?.[1];
  if (!at && file && (err as Error)?.name === 'SyntaxError') {
    // Node prints a syntax error's place only where it reports an uncaught one: import it in a node of its own.
    // (the dynamic import written in two pieces, as in nodeImport above)
    const code = `${['im', 'port'].join('')}(${JSON.stringify(pathToFileURL(file).href)})`;
    const check = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    at = /(?:file:\/\/)?(\/[^\s:()]+:\d+)/.exec(check.stderr ?? '')?.[1];
  }
  return `${message.split('\n')[0]}${at && !message.includes(at) ? ` (${at})` : ''}`;
}
