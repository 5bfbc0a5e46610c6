// A rule about what the model reads (docs/plugins.md, "Text rules"): written once, it runs live on
// what the run listed and fetched (no request of its own) and in `lint` on the files of a folder,
// from the same reading of the server's texts at progressive disclosure's two levels — the listed one
// (a tools/list entry: what every prompt carries) and the full one (what a fetch returns) — and of
// the resource's description and the server's instructions.
import type { Codes } from '../core/check.js';
import type { Args, Messages } from '../core/messages.js';
import type { PluginCheckDefinition, PluginCheckSpec } from '../core/plugin.js';
import type { LintContext } from '../lint/context.js';
import type { LintFile } from '../lint/files.js';
import type { LiveContext } from '../run/context.js';
import type { Descriptions } from '../run/facts.js';
import type { Exchange, JsonObject } from '../transport/types.js';

/** Which text a finding is about. */
export type TextLevel = 'listed' | 'full' | 'resource' | 'instructions' | 'listing';

/** One tool's texts: its tools/list entry, its full description (either may be missing). */
export interface ToolTexts {
  name: string;
  listed?: JsonObject;
  full?: JsonObject;
}

/** What a rule reads of a server, live or from files. */
export interface ServerTexts {
  /** Where it comes from: a live run, or files under lint. */
  source: 'live' | 'lint';
  tools: readonly ToolTexts[];
  /** The tool_descriptions resource as resources/list gives it (live only). */
  resource?: JsonObject;
  /** The server's instructions (initialize), when it gives them. */
  instructions?: string;
  /** The names of tools/list as listed by each listing the run made, in order (live only: two at least). */
  listings?: ReadonlyArray<readonly string[]>;
}

/** Where a rule found something: a tool's text at one level, the resource, the instructions or the listing. */
export interface TextPlace {
  level: TextLevel;
  tool?: string;
  /** A JSON pointer within that text (its entry, its full description, the resource entry). */
  pointer?: string;
}

/** How a rule reports: a code of its messages, its args, where; `warn` or `info` below the rule's own level. */
export type TextReport<C extends string> = (
  code: C,
  args: Args,
  at: TextPlace,
  level?: 'fail' | 'warn' | 'info',
) => void;

export interface TextRuleDefinition<M extends Messages> {
  id: string;
  title: string;
  spec: PluginCheckSpec;
  messages: M;
  /** Where it runs (default both): a rule about the listing's order, say, can only run live. */
  runs?: ReadonlyArray<'live' | 'lint'>;
  /**
   * The texts it reads: with none of them at hand (a lint of full descriptions only, for a rule of
   * the listed level; a server without instructions), it is skipped, saying so — never a pass for
   * nothing read.
   */
  reads: ReadonlyArray<Exclude<TextLevel, 'listing'>>;
  /**
   * Reads the texts and reports what breaks the rule. `options`: what the user set for the rule
   * (`"rules": { "<id>": ["warn", { … }] }`), over the rule's defaults.
   */
  check(texts: ServerTexts, report: TextReport<Codes<M>>, options: Readonly<Record<string, unknown>>): void;
  /** The options the rule takes, with their defaults (documented on its page). */
  defaults?: Readonly<Record<string, unknown>>;
}

/**
 * A text rule as the checks that run it: a live check and a lint check of the same id (one per
 * place it runs), for a plugin's `checks`.
 */
export function defineTextRule<M extends Messages>(
  rule: TextRuleDefinition<M>,
): Array<PluginCheckDefinition<LiveContext<Codes<M>>, M> | PluginCheckDefinition<LintContext<Codes<M>>, M>> {
  const runs = rule.runs ?? ['live', 'lint'];
  const base = {
    id: rule.id,
    title: rule.title,
    spec: rule.spec,
    messages: rule.messages,
    ...(rule.defaults ? { defaults: rule.defaults } : {}),
  };
  const live: PluginCheckDefinition<LiveContext<Codes<M>>, M> = {
    ...base,
    needs: 'session',
    reads: ['descriptions'],
    async run(this: { options?: Readonly<Record<string, unknown>> }, ctx) {
      const { texts, proof } = liveTexts(ctx as unknown as LiveContext);
      if (!readsAny(texts, rule.reads)) ctx.skip('nothing-to-read', { what: whatOf(rule.reads, 'live') });
      rule.check(
        texts,
        (code, args, at, level = 'fail') =>
          report(ctx, level, code, args, { location: { tool: at.tool ?? '' }, transcript: proof(at) }, at),
        { ...rule.defaults, ...this?.options },
      );
    },
  };
  const lint: PluginCheckDefinition<LintContext<Codes<M>>, M> = {
    ...base,
    needs: 'folder',
    async run(this: { options?: Readonly<Record<string, unknown>> }, ctx) {
      const { texts, where } = lintTexts(ctx as unknown as LintContext);
      if (!readsAny(texts, rule.reads)) ctx.skip('nothing-to-lint', { what: whatOf(rule.reads, 'lint') });
      rule.check(
        texts,
        (code, args, at, level = 'fail') => {
          const place = where(at);
          report(ctx, level, code, args, place ? { location: ctx.at(place.file, place.pointer) } : {}, at);
        },
        { ...rule.defaults, ...this?.options },
      );
    },
  };
  return [...(runs.includes('live') ? [live] : []), ...(runs.includes('lint') ? [lint] : [])];
}

/** Whether any text of these levels is at hand. */
function readsAny(texts: ServerTexts, levels: TextRuleDefinition<Messages>['reads']): boolean {
  return levels.some((level) => {
    if (level === 'listed') return texts.tools.some((t) => t.listed);
    if (level === 'full') return texts.tools.some((t) => t.full);
    if (level === 'resource') return texts.resource !== undefined;
    return texts.instructions !== undefined;
  });
}

/** What a rule lacked, said as the skip says it. */
function whatOf(levels: TextRuleDefinition<Messages>['reads'], source: 'live' | 'lint'): string {
  const names = {
    live: {
      listed: 'tools/list entry',
      full: 'full description (no read of the resource answered)',
      resource: 'tool_descriptions resource in resources/list',
      instructions: 'instructions in the initialize result',
    },
    lint: {
      listed: 'saved tools/list ({ "tools": [...] })',
      full: 'tool description (tool_descriptions/<tool>.json)',
      resource: 'resource description (lint reads no resources/list)',
      instructions: 'saved initialize result with instructions',
    },
  }[source];
  return levels.map((level) => names[level]).join(' or ');
}

/** A finding at the rule's level, or below it; one without a place in lint is left out (it has nowhere to be). */
function report<C extends string>(
  ctx: {
    fail(code: C, args: Args, extras: object): void;
    warn(code: C, args: Args, extras: object): void;
    info(code: C, args: Args, extras: object): void;
  },
  level: 'fail' | 'warn' | 'info',
  code: C,
  args: Args,
  extras: object,
  at: TextPlace,
): void {
  const withTool = at.tool !== undefined && !('tool' in args) ? { ...args, tool: at.tool } : args;
  if (level === 'fail') ctx.fail(code, withTool, extras);
  else if (level === 'warn') ctx.warn(code, withTool, extras);
  else ctx.info(code, withTool, extras);
}

/** The texts of a live run: what it listed and fetched, and the exchanges that show each. */
function liveTexts(ctx: LiveContext): { texts: ServerTexts; proof: (at: TextPlace) => Exchange[] } {
  const discovery = ctx.discovery;
  // None when the run's time was up before the descriptions were read (the check is then not run).
  const descriptions = ctx.facts.descriptions as Descriptions | undefined;
  const tools = discovery.tools.map((entry) => {
    const name = typeof entry.name === 'string' ? entry.name : '';
    const full = descriptions?.full.get(name);
    return { name, listed: entry, ...(full ? { full } : {}) };
  });
  const instructions = discovery.initializeResult.instructions;
  const texts: ServerTexts = {
    source: 'live',
    tools,
    ...(discovery.descriptionsResource ? { resource: discovery.descriptionsResource } : {}),
    ...(typeof instructions === 'string' ? { instructions } : {}),
  };
  const proof = (at: TextPlace): Exchange[] => {
    if (at.level === 'full' && at.tool !== undefined) {
      const read = descriptions?.reads.get(at.tool);
      return read ? [read] : [];
    }
    if (at.level === 'resource') return discovery.resourcesExchanges;
    if (at.level === 'instructions') return discovery.initializeExchanges;
    return discovery.toolsExchanges;
  };
  return { texts, proof };
}

/** The texts of the files under lint: full descriptions, saved tools/list results, initialize results. */
type LintTexts = { texts: ServerTexts; where: (at: TextPlace) => { file: LintFile; pointer: string } | undefined };
/** The texts of a lint's files, gathered once for every rule of the run (a lint of 10,000 files has eleven rules). */
const lintTextsOf = new WeakMap<readonly LintFile[], LintTexts>();

function lintTexts(ctx: LintContext): LintTexts {
  const known = lintTextsOf.get(ctx.files);
  if (known) return known;
  const gathered = gatherLintTexts(ctx);
  lintTextsOf.set(ctx.files, gathered);
  return gathered;
}

function gatherLintTexts(ctx: LintContext): LintTexts {
  const tools = new Map<string, ToolTexts & { listedAt?: { file: LintFile; pointer: string }; fullAt?: LintFile }>();
  const tool = (name: string) => tools.get(name) ?? tools.set(name, { name }).get(name)!;
  let instructions: { text: string; file: LintFile } | undefined;
  for (const file of ctx.files) {
    if (!file.source?.parsed) continue;
    const value = file.source.value as JsonObject;
    if (file.kind === 'tool-description' && typeof value.name === 'string')
      Object.assign(tool(value.name), { full: value, fullAt: file });
    if (file.kind === 'tools-list' && Array.isArray(value.tools)) {
      value.tools.forEach((entry, i) => {
        if (typeof entry === 'object' && entry !== null && typeof (entry as JsonObject).name === 'string')
          Object.assign(tool((entry as JsonObject).name as string), {
            listed: entry as JsonObject,
            listedAt: { file, pointer: `/tools/${i}` },
          });
      });
    }
    if (file.kind === 'initialize-result' && typeof value.instructions === 'string')
      instructions = { text: value.instructions, file };
  }
  const texts: ServerTexts = {
    source: 'lint',
    tools: [...tools.values()].map(({ name, listed, full }) => ({
      name,
      ...(listed ? { listed } : {}),
      ...(full ? { full } : {}),
    })),
    ...(instructions ? { instructions: instructions.text } : {}),
  };
  const where = (at: TextPlace) => {
    const t = at.tool !== undefined ? tools.get(at.tool) : undefined;
    if (at.level === 'listed' && t?.listedAt)
      return { file: t.listedAt.file, pointer: `${t.listedAt.pointer}${at.pointer ?? ''}` };
    if (at.level === 'full' && t?.fullAt) return { file: t.fullAt, pointer: at.pointer ?? '' };
    if (at.level === 'instructions' && instructions) return { file: instructions.file, pointer: '/instructions' };
    return undefined;
  };
  return { texts, where };
}
