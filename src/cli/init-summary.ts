import { join, resolve } from 'node:path';
import type { InitOutcome } from '../library/init-server.js';
import { formatNumber, shellWord } from '../util/text.js';
import type { Invocation } from './invocation.js';

/** The summary init prints: what it wrote, the token figures, and the next three steps. */
export function initSummary(outcome: InitOutcome, options: { out: string }, invoked: Invocation): string {
  const runCommand = invoked.shell;
  // A client starts the server from a folder of its own: its configuration names everything absolutely.
  const inClient = `${invoked.absolute} serve --descriptions ${shellWord(resolve(options.out))} --`;
  const { plan, written, kept } = outcome;
  const out = options.out;
  const lines: string[] = [];
  const tools = plan.tokens.perTool.length;
  lines.push(
    `Wrote ${written.length} file${written.length === 1 ? '' : 's'} to ${out} for ${tools} tool${tools === 1 ? '' : 's'}.`,
  );
  if (plan.disclosedBy)
    lines.push(
      `The server serves progressive disclosure already: the full descriptions were read from ${plan.disclosedBy} (its tools/list entries are minimal), its own tool form left out.`,
    );
  if (kept.length)
    lines.push(
      `Kept ${kept.length} that already exist${kept.length === 1 ? 's' : ''} (--force overwrites them): ${kept.slice(0, 5).join(', ')}${kept.length > 5 ? `, … ${kept.length - 5} more` : ''}.`,
    );
  if (plan.skipped.length)
    lines.push(
      `Skipped ${plan.skipped.length} tool${plan.skipped.length === 1 ? '' : 's'} whose name cannot be a file name: ${plan.skipped.slice(0, 5).join(', ')}.`,
    );
  const names = (tools: string[]) =>
    `${tools
      .slice(0, 6)
      .map((t) => `'${t}'`)
      .join(', ')}${tools.length > 6 ? ` and ${tools.length - 6} more` : ''}`;
  if (plan.withoutExamples.length)
    lines.push(
      `No example of a call in the description of ${plan.withoutExamples.length === 1 ? 'one tool' : `${plan.withoutExamples.length} tools`} (${names(plan.withoutExamples)}): none was made up — add real ones (marked REVIEW).`,
    );
  if (plan.unusableExamples.length)
    lines.push(
      `Calls shown in the description of ${names(plan.unusableExamples)} do not validate against ${plan.unusableExamples.length === 1 ? 'its' : 'their'} inputSchema, so they were left out of "examples".`,
    );
  const configFile = join(out, 'mcp-pd-check.config.json');
  if (plan.variables.length) {
    const each = plan.variables.map((v) => `$${v.variable} (${v.source})`).join(', ');
    const what = plan.variables.some((v) => v.source.startsWith('--env '))
      ? plan.variables.every((v) => v.source.startsWith('--env '))
        ? 'The server needs its environment'
        : 'The server command holds secrets and the server needs its environment'
      : 'The server command holds secrets';
    lines.push(
      `${what}: the config reads ${plan.variables.length === 1 ? 'it' : 'them'} from the environment where the check runs, never the value: ${each}. Set ${plan.variables.length === 1 ? 'it' : 'them'} there (in CI, as secrets).`,
    );
  }
  if (plan.plainEnv.length)
    lines.push(
      `Written into the config as given (nothing secret in ${plan.plainEnv.length === 1 ? 'its name or value' : 'their names or values'}): ${plan.plainEnv.map((k) => `${k}`).join(', ')}.`,
    );
  const inRoot = resolve(out) === process.cwd();
  const { before, after, full, saving, encoding } = plan.tokens;
  lines.push(
    '',
    `Tokens of tools/list (${encoding}), today → minimal (tools-list.minimal.json), and how often the`,
    "tool's own sentences find it first by its minimal description (BM25, as clients that search tools do):",
  );
  const width = Math.max(4, ...plan.tokens.perTool.map((t) => t.tool.length));
  const found = new Map(plan.selection.tools.map((f) => [f.tool, f]));
  const share = (f: { queries: number; top1: number } | undefined) =>
    f && f.queries ? `found first ${String(Math.round(f.top1 * 100)).padStart(3)} %` : '';
  for (const t of plan.tokens.perTool)
    lines.push(
      `  ${t.tool.padEnd(width)}  ${formatNumber(t.before).padStart(6)} → ${formatNumber(t.after).padStart(5)}   ${share(found.get(t.tool))}`.trimEnd(),
    );
  // serve's tool form is in the list written: counted and ranked as every entry is.
  const form = plan.tokens.form;
  if (form)
    lines.push(
      `  ${form.tool.padEnd(width)}  ${'—'.padStart(6)} → ${formatNumber(form.after).padStart(5)}   ${share(found.get(form.tool))}${share(found.get(form.tool)) ? ' ' : ''}(serve's tool form)`.trimEnd(),
    );
  // The share of all is of the tools that gave a query: said so when some gave none.
  const listed = plan.selection.tools.length;
  const asked = plan.selection.tools.filter((f) => f.queries > 0).length;
  const ofAsked =
    share(plan.selection) && asked < listed ? ` (the ${asked} of ${listed} tools whose description gave a query)` : '';
  lines.push(
    `  ${'all'.padEnd(width)}  ${formatNumber(before).padStart(6)} → ${formatNumber(after).padStart(5)}   ${share(plan.selection)}${ofAsked}`.trimEnd(),
  );
  lines.push('  (each minimal entry keeps the title and annotations: clients choose and ask for approval by them)');
  lines.push(
    `Saving: ${Math.round(saving * 100)} % — the list written costs ${formatNumber(after)} tokens in every prompt (today ${formatNumber(before)}), its full descriptions ${formatNumber(full)} (${form ? `the files written and serve's for ${form.tool}` : 'the files written'}), read only when a tool is used; as pd-token-savings and lint count it behind serve${plan.tokens.placeholders ? '; an estimate until the REVIEW: placeholders in them are filled (they are counted now)' : ''}.`,
  );
  const served = plan.tokens.served;
  if (served)
    lines.push(
      `The server's own list costs ${formatNumber(served.listed)} tokens against ${formatNumber(served.full)}, ${Math.round(served.saving * 100)} %: what pd-token-savings reports of it today; the figure above is of the list written here.`,
    );
  lines.push(
    '',
    'Next:',
    `  1. Review what is marked "REVIEW:": examples and guidance in ${join(out, 'tool_descriptions')}, and the`,
    `     safety fields of each card in ${join(out, '.well-known', 'mcp-tools')} (then delete its "x-review").`,
    `     '${runCommand} lint ${out}' counts what is left.`,
    ...(plan.disclosedBy
      ? [
          `  2. The server serves the resource itself: keep ${out} as its reviewed descriptions (lint checks them),`,
          `     or serve them in front of it with '${inClient}' before its command.`,
        ]
      : [
          `  2. Serve the folder, with no change to your server: put '${inClient}'`,
          `     before its command in your client's configuration (or implement the resource, the grants and the`,
          `     refusals in your server: reference-server/server.ts in the mcp-pd-check repository does all of it).`,
        ]),
    `  3. Run the checker: '${runCommand} --config ${configFile}'.`,
    ...(plan.served
      ? [
          '     The config starts the server behind serve with this folder (once the server implements',
          "     progressive disclosure itself, drop the words up to '--' from its command).",
        ]
      : ['     The config names the server.']),
    `     Paths in it are relative to it. ${join(out, '.github', 'workflows', 'mcp-pd-check.yml')} runs it in CI${inRoot ? '.' : ' once moved to'}`,
    ...(inRoot ? [] : [`     your repository's .github/workflows/.`]),
    '',
  );
  return lines.join('\n');
}
