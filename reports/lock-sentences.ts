// The lock's diff in words, once (a reporter: src/lock/diff.ts decides what changed): each change as a headline and
// detail lines, with a word diff of
// a description, in the marks of the format asked for (text: [-old-]{+new+}; markdown: ~~old~~
// **new**). The text, JSON, Markdown and GitHub renderings are built from these sentences.
import { diffWords } from 'diff';
import { formatNumber, sanitizeLine } from '../src/util/text.js';
import { delta, type LockDiff, type SurfaceChange, type Tokens, type ToolChange } from '../src/lock/diff.js';

/** How a format marks words removed and added, a name, and any other text from the server (escaped for it). */
export interface Marks {
  removed: (s: string) => string;
  added: (s: string) => string;
  code: (s: string) => string;
  plain: (s: string) => string;
}

export const TEXT_MARKS: Marks = {
  removed: (s) => `[-${sanitizeLine(s)}-]`,
  added: (s) => `{+${sanitizeLine(s)}+}`,
  code: (s) => `'${sanitizeLine(s)}'`,
  plain: sanitizeLine,
};

/** An unchanged run longer than this many words shows its ends only: a review reads what changed. */
const CONTEXT_WORDS = 6;

/** "Search the [-web-]{+index+} for …": the words removed and added, with a little context. */
export function wordDiff(before: string, after: string, marks: Marks): string {
  return diffWords(before, after)
    .map((part) => {
      if (part.removed) return marks.removed(part.value);
      if (part.added) return marks.added(part.value);
      // Words and the spaces between them: 2 × n pieces are n words.
      const pieces = part.value.split(/(\s+)/);
      if (pieces.length <= 5 * CONTEXT_WORDS) return marks.plain(part.value);
      return marks.plain(`${pieces.slice(0, 2 * CONTEXT_WORDS).join('')}…${pieces.slice(-2 * CONTEXT_WORDS).join('')}`);
    })
    .join('');
}

export function tokensText(t: Tokens): string {
  if (t.before === undefined) return formatNumber(t.after ?? 0);
  if (t.after === undefined) return formatNumber(t.before);
  return t.before === t.after
    ? formatNumber(t.after)
    : `${formatNumber(t.before)} → ${formatNumber(t.after)} (${delta(t)})`;
}

/** A total of full descriptions, where one side has none (a server without the resource): "2,071 → none". */
function fullText(t: Tokens): string {
  if (t.before === undefined) return `none → ${formatNumber(t.after ?? 0)}`;
  if (t.after === undefined) return `${formatNumber(t.before)} → none`;
  return tokensText(t);
}

const eraList = (eras: string[]) => (eras.length > 1 ? eras.join(' and ') : eras[0]);

/** The change's first line: what happened to which tool, in which eras. */
export function headline(change: SurfaceChange, marks: Marks): string {
  switch (change.kind) {
    case 'era-added':
      return `protocol era ${eraList(change.eras)} is spoken now and was not locked`;
    case 'era-removed':
      return `protocol era ${eraList(change.eras)} was locked and is not spoken now`;
    case 'tool-added':
      return `tool ${marks.code(change.tool)} added (${eraList(change.eras)}): ${tokensText(change.listed)} tokens listed${change.full ? `, ${tokensText(change.full)} in its full description` : ''}`;
    case 'tool-removed':
      return `tool ${marks.code(change.tool)} removed (${eraList(change.eras)}): ${tokensText(change.listed)} tokens listed`;
    case 'tool-changed':
      return `tool ${marks.code(change.tool)} changed (${eraList(change.eras)}): tokens listed ${tokensText(change.listed)}${change.full && change.full.before !== change.full.after ? `, full ${tokensText(change.full)}` : ''}`;
  }
}

/** What changed in a tool, a line each. */
export function details(change: SurfaceChange, marks: Marks): string[] {
  return change.kind === 'tool-changed' ? change.what.map((w) => detail(w, marks)) : [];
}

function detail(w: ToolChange, marks: Marks): string {
  switch (w.field) {
    case 'description':
      return `description: ${wordDiff(w.before, w.after, marks)}`;
    case 'title':
      return `title: ${wordDiff(w.before, w.after, marks)}`;
    case 'fullDescription':
      return `full description: ${wordDiff(w.before, w.after, marks)}`;
    case 'annotations':
      return `annotations: ${w.flips.map((f) => `${marks.code(f.hint)} ${marks.plain(shown(f.before))} → ${marks.plain(shown(f.after))}`).join('; ')}`;
    case 'inputSchema':
    case 'fullSchema': {
      const parts = [
        ...w.added.map((p) => `+ ${marks.code(p)}`),
        ...w.removed.map((p) => `− ${marks.code(p)}`),
        ...w.changed.map((p) => `${marks.code(p)} changed`),
        ...w.requiredAdded.map((p) => `${marks.code(p)} now required`),
        ...w.requiredRemoved.map((p) => `${marks.code(p)} no longer required`),
      ];
      return `${w.field === 'fullSchema' ? "full description's input schema" : 'input schema'}: ${parts.length ? parts.join(', ') : 'changed (not in its parameters: type, $defs, additionalProperties…)'}`;
    }
    case 'outputSchema':
      return `output schema ${w.before && w.after ? 'changed' : w.after ? 'added' : 'removed'}`;
    case 'full':
      return w.before === undefined
        ? `full description now served (${formatNumber(w.after ?? 0)} tokens)`
        : w.after === undefined
          ? 'full description no longer served'
          : `full description changed (examples, guidance…): ${tokensText({ before: w.before, after: w.after })} tokens`;
    case 'other':
      return 'another field of its listed definition changed (_meta, icons…): its digest differs';
  }
}

function shown(v: unknown): string {
  return v === undefined ? '(none)' : JSON.stringify(v);
}

/** The totals line of each era that changed: tools and tokens before → after. */
export function totalsLines(diff: LockDiff): string[] {
  return diff.totals.map(
    (t) =>
      `${t.era}: tools ${tokensText(t.tools)}; tools/list tokens ${tokensText(t.listed)}${t.full ? `; full descriptions' tokens ${fullText(t.full)}` : ''}`,
  );
}

/** One line that says how much changed. */
export function summaryLine(diff: LockDiff, file: string): string {
  if (diff.same) return `${file}: the server's tool surface is as locked.`;
  const n = diff.changes.length;
  if (!n && diff.server) return `${file}: the tools are as locked. ${serverLine(diff.server)}`;
  return `${file}: ${n} change${n === 1 ? '' : 's'} to the tool surface since it was locked.${diff.server ? ` ${serverLine(diff.server)}` : ''}`;
}

/** Said first when the names differ: a lock of another server explains every change below it. */
function serverLine(server: NonNullable<LockDiff['server']>): string {
  const name = (n?: string) => (n === undefined ? 'no name' : `'${sanitizeLine(n)}'`);
  return `The lock is of the server ${name(server.locked)}, the server now calls itself ${name(server.now)}: if that is another server, check it against its own lock file.`;
}

/** What to do when the change is meant: every format says it, with the checker as this run was started. */
export function updateHint(file: string, command = 'mcp-pd-check'): string {
  return `If the change is meant, rewrite the lock: ${updateCommand(file, command)} with the same server and options as this check, and commit it.`;
}

export const updateCommand = (file: string, command = 'mcp-pd-check') => `${command} lock --update --out ${file}`;
