/**
 * mcp-pd-check/plugin: what a plugin of checks needs, and nothing else (docs/plugins.md). A plugin
 * is an ES module whose default export is definePlugin({ name, version, apiVersion, checks }); its
 * checks run beside ours, with the same context, findings, messages and proofs, under the ids
 * `<plugin>/<check>`. The API is versioned with the package: PLUGIN_API_VERSION is the one this
 * copy speaks, and a plugin names the one it was written for.
 *
 *   import { definePlugin, defineLiveCheck, PLUGIN_API_VERSION } from 'mcp-pd-check/plugin';
 *   export default definePlugin({ name: 'acme', version: '1.0.0', apiVersion: PLUGIN_API_VERSION, checks: [...] });
 */
import type { Codes } from '../core/check.js';
import type { Messages } from '../core/messages.js';
import type { PluginCheckDefinition } from '../core/plugin.js';
import type { LintContext } from '../lint/context.js';
import type { LiveContext } from '../run/context.js';

export {
  definePlugin,
  PLUGIN_API_VERSION,
  type Plugin,
  type PluginCheckDefinition,
  type PluginCheckSpec,
} from '../core/plugin.js';
export type { LiveContext } from '../run/context.js';
export type { LintContext } from '../lint/context.js';
export type { LintFile, FileKind } from '../lint/files.js';
export type { Args, Messages, MessageSpec } from '../core/messages.js';
export type { CheckNeeds, Fact } from '../core/check.js';
export type { CheckReport, CheckResult, Finding, FindingLocation } from '../generated/report.js';
export type { Exchange, JsonObject } from '../transport/types.js';
export type { McpSession } from '../transport/session.js';

/** A live check of a plugin: it runs against a server; `ctx.fail('code', …)` takes only the codes of `messages`. */
export type PluginLiveCheck<M extends Messages = Messages> = PluginCheckDefinition<LiveContext<Codes<M>>, M>;

/** A lint check of a plugin (`needs: 'folder'`): it reads the files given to lint. */
export type PluginLintCheck<M extends Messages = Messages> = PluginCheckDefinition<LintContext<Codes<M>>, M>;

/** A live check (needs: session, sessions or http), as a plugin writes it: checked and namespaced by definePlugin. */
export function defineLiveCheck<M extends Messages>(check: PluginLiveCheck<M>): PluginLiveCheck<M> {
  return Object.freeze({ ...check });
}

/** A lint check (needs: folder), as a plugin writes it: checked and namespaced by definePlugin. */
export function defineLintCheck<M extends Messages>(check: PluginLintCheck<M>): PluginLintCheck<M> {
  return Object.freeze({ ...check });
}

export {
  defineTextRule,
  type ServerTexts,
  type TextLevel,
  type TextPlace,
  type TextReport,
  type TextRuleDefinition,
  type ToolTexts,
} from './text-rule.js';

/**
 * What should not be published in what a model reads — credentials, absolute paths, internal
 * hosts, private addresses — found by the patterns lint-no-secrets uses, each match masked.
 */
export { findSecrets, type SecretMatch } from '../lint/secrets.js';
/**
 * What a server said is masked before any check reads it (nothing secret reaches a report): the
 * secrets a text held, by what they were ("a GitHub token", "--header Authorization").
 */
export { redactionsIn } from '../safety/redact.js';

/** What is HOW to call a tool (formats, examples, constraints), not WHAT it does: the patterns init's minimal descriptions leave out. */
export { HOW_PATTERNS } from '../rules/minimal-description.js';
