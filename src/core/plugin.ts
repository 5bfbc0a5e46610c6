// A team's own checks, as a plugin (docs/plugins.md): an ES module whose default export is
// definePlugin({ name, version, apiVersion, checks }). Its checks are checks like ours — the same
// context, findings, messages and proofs — under ids of their own (`<plugin>/<check>`), so a plugin
// never shadows a built-in check or another plugin's. What a plugin declares wrong is said in one line.
import type { CheckDefinition, CheckSpec, PluginOrigin } from './check.js';

export type { PluginOrigin };
import { InputError } from './input-error.js';
import { isCode, type Messages } from './messages.js';
import type { SpecRef } from '../generated/report.js';

/** The plugin API this checker speaks: a plugin names the one it was written for. */
export const PLUGIN_API_VERSION = 1;

/** The mark of a plugin, across copies of this package (a plugin's own copy of mcp-pd-check/plugin makes it). */
const PLUGIN_MARK = Symbol.for('mcp-pd-check.plugin');

/** A kebab-case name: a plugin's, and a check's within it. */
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** What a plugin's check cites: its own documentation, and how strong the rule is. */
export interface PluginCheckSpec {
  /** Where the check is documented: a URL, or a file of the plugin. */
  url: string;
  /** The rule's word, as a spec would say it: MUST fails the run, SHOULD warns (a user's `rules` can change it). */
  level: SpecRef['level'];
  /** A section of that documentation (default: the check's id). */
  section?: string;
}

/** The parts of a check definition a plugin writes (the rest is ours: the run's own facts and figures). */
type PluginCheckFields =
  'id' | 'title' | 'needs' | 'eras' | 'reads' | 'opens' | 'fresh' | 'sessionUse' | 'messages' | 'run';

/** A check as a plugin defines it: a short id (namespaced by definePlugin) and a spec of its own. */
export type PluginCheckDefinition<Ctx, M extends Messages = Messages> = Pick<
  CheckDefinition<Ctx, M>,
  PluginCheckFields
> & { spec: PluginCheckSpec };

/** A plugin, as definePlugin returns it: its checks as written (pluginChecks namespaces them). */
export interface Plugin<Check = PluginCheckDefinition<never>> {
  readonly name: string;
  readonly version: string;
  readonly apiVersion: number;
  readonly checks: readonly Check[];
}

/** What a plugin module's author writes. */
export interface PluginInput<Check> {
  name: string;
  version: string;
  /** The plugin API it was written for (PLUGIN_API_VERSION of the mcp-pd-check/plugin it imports). */
  apiVersion: number;
  checks: readonly Check[];
}

/**
 * A plugin: its name, version and API, and its checks as written. Everything is checked here, so
 * that a plugin's own tests meet its mistakes, and again by the checker that loads it (pluginChecks:
 * the plugin may import another copy of this package). Anything declared wrong is an InputError of
 * one line that names the plugin (the CLI exits 2).
 */
export function definePlugin<Check extends PluginCheckDefinition<never>>(input: PluginInput<Check>): Plugin<Check> {
  const plugin = {
    [PLUGIN_MARK]: PLUGIN_API_VERSION,
    name: input?.name,
    version: input?.version,
    apiVersion: input?.apiVersion,
    checks: input?.checks,
  };
  pluginChecks(plugin);
  return Object.freeze(plugin);
}

/**
 * A plugin's checks as this checker runs them: each checked, namespaced as `<name>/<id>`, its spec
 * pointing at the plugin's own documentation, marked with where it comes from, and frozen.
 */
export function pluginChecks(plugin: Plugin<unknown>, file?: string): Array<CheckDefinition<never>> {
  const name = typeof plugin?.name === 'string' ? plugin.name : '';
  const label = name || 'a plugin without a name';
  if (!NAME.test(name))
    throw new InputError(`plugin '${label}': its name must be kebab-case (a-z, 0-9 and -), as check ids are`);
  if (typeof plugin.version !== 'string' || !plugin.version)
    throw new InputError(`plugin '${name}': give its version (a string, e.g. '1.0.0')`);
  if (plugin.apiVersion !== PLUGIN_API_VERSION) {
    throw new InputError(
      `plugin '${name}' was written for plugin API ${String(plugin.apiVersion)}; this mcp-pd-check speaks API ${PLUGIN_API_VERSION}: use a version of the plugin for API ${PLUGIN_API_VERSION}, or an mcp-pd-check that speaks ${String(plugin.apiVersion)}`,
    );
  }
  if (!Array.isArray(plugin.checks))
    throw new InputError(`plugin '${name}': 'checks' must be a list of checks (defineLiveCheck, defineLintCheck)`);
  const seen = new Set<string>();
  return (plugin.checks as Array<PluginCheckDefinition<never>>).map((check) => {
    const id = namespacedCheck(name, check);
    const kind = check.needs === 'folder' ? 'lint' : 'live';
    if (seen.has(`${kind} ${id}`))
      throw new InputError(`plugin '${name}' defines the ${kind} check '${id}' twice: a check id is stable and unique`);
    seen.add(`${kind} ${id}`);
    const spec: CheckSpec = {
      doc: name,
      section: check.spec.section ?? check.id,
      level: check.spec.level,
      url: check.spec.url,
      requirements: [],
    };
    const origin: PluginOrigin = { name, version: plugin.version, ...(file ? { file } : {}) };
    return Object.freeze({ ...check, id, spec, plugin: origin });
  });
}

/** A check's id in its plugin, after its definition is checked: `<plugin>/<id>`. */
function namespacedCheck(plugin: string, check: PluginCheckDefinition<never>): string {
  const id = typeof check?.id === 'string' ? check.id : '';
  if (!NAME.test(id))
    throw new InputError(
      `plugin '${plugin}': check id '${id}' must be kebab-case (a-z, 0-9 and -), without the plugin's name (it becomes '${plugin}/<id>')`,
    );
  const full = `${plugin}/${id}`;
  if (typeof check.title !== 'string' || !check.title.trim())
    throw new InputError(`plugin '${plugin}': check '${full}' needs a title (what passing means, in one line)`);
  if (typeof check.run !== 'function')
    throw new InputError(`plugin '${plugin}': check '${full}' has no run(ctx) function`);
  if (!['session', 'sessions', 'http', 'folder'].includes(check.needs)) {
    throw new InputError(
      `plugin '${plugin}': check '${full}' needs '${String(check.needs)}', which is none of session, sessions, http (live) or folder (lint)`,
    );
  }
  if (typeof check.spec?.url !== 'string' || !check.spec.url)
    throw new InputError(
      `plugin '${plugin}': check '${full}' must say where it is documented (spec.url: a URL or a file of the plugin)`,
    );
  if (typeof check.messages !== 'object' || check.messages === null || !Object.keys(check.messages).length) {
    throw new InputError(
      `plugin '${plugin}': check '${full}' defines no message codes (messages: { 'code': 'text with {args}' })`,
    );
  }
  for (const [code, spec] of Object.entries(check.messages)) {
    if (!isCode(code))
      throw new InputError(
        `plugin '${plugin}': check '${full}' has the message code '${code}', which is not kebab-case`,
      );
    const text = typeof spec === 'string' ? spec : (spec as { message?: unknown })?.message;
    if (typeof text !== 'string' || !text.trim())
      throw new InputError(`plugin '${plugin}': check '${full}' defines the code '${code}' without a message`);
  }
  return full;
}

/** Whether a module's default export is a plugin (made by definePlugin, of any copy of this package). */
export function isPlugin(value: unknown): value is Plugin<unknown> {
  return typeof value === 'object' && value !== null && PLUGIN_MARK in value;
}
