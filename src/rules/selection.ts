// Will a client still find the tool? Clients that defer tool definitions choose by text search over
// names and descriptions (Codex ranks deferred MCP tools with BM25; Anthropic's tool search has a
// BM25 variant). So: rank every tool's name + minimal description with BM25 for queries taken from
// what the server itself says each tool is for, and see whether the tool comes first.
import MiniSearch from 'minisearch';
import type { RuleProblem } from '../core/findings.js';
import { minimalFrom } from './minimal-description.js';
import { nameTerms, sentences, terms } from '../util/words.js';

/** A tool as selection sees it: what tools/list says, and what its own description says it is for. */
export interface SelectionTool {
  name: string;
  /** The minimal (tools/list) description. */
  minimal: string;
  /** Texts that ask for this tool: its full description's sentences, examples, usage patterns. */
  queries: string[];
}

export interface ToolFidelity {
  tool: string;
  queries: number;
  /** Share of its queries that rank it first (0–1). */
  top1: number;
  /** Mean reciprocal rank of the tool over its queries (0–1). */
  mrr: number;
  /** The tool most often ranked first instead, when it is not. */
  winner?: string;
}

export interface SelectionFigures {
  tools: ToolFidelity[];
  /** Over every query of every tool. */
  top1: number;
  mrr: number;
  queries: number;
}

/** Words that say nothing about what a tool does (a description of only these and the name's words restates it). */
const FILLER = new Set([
  'a',
  'an',
  'the',
  'of',
  'to',
  'for',
  'in',
  'on',
  'by',
  'with',
  'and',
  'or',
  'from',
  'this',
  'that',
  'it',
  'its',
  'is',
  'are',
  'be',
  'as',
  'at',
  'tool',
  'tools',
]);

/**
 * Tools ranked at most: beyond it, an even sample of this many stands for the server (index, queries and pairs), so
 * that a 10,000-tool list costs about what 1,000 do.
 */
export const MAX_RANKED_TOOLS = 1000;

/** Below this share of first places, a tool is hard to find by its minimal description. */
export const LOW_TOP1 = 0.5;
/** A tool is judged on at least this many queries from its own description: one query is a coin, not a share. */
export const MIN_QUERIES = 2;
/** Two minimal descriptions sharing this much of their words (Jaccard) are near-duplicates. */
export const NEAR_DUPLICATE = 0.8;

export const SELECTION_MESSAGES = {
  'not-found-first': {
    message:
      "Tool '{tool}': {percent} % of {queries|query|queries} taken from its own description rank it first by its minimal description (BM25; mean reciprocal rank {mrr}); '{winner}' comes first instead.",
    hint: "Say in the tools/list description of '{tool}' what sets it apart from '{winner}': the words a model would search for (§3.1: complete enough for selection).",
  },
  'near-duplicate': {
    message:
      "Tools '{tool}' and '{other}' have near-identical minimal descriptions (shared words: {shared}): a model choosing by them cannot tell the two apart.",
    hint: 'Give each a description that says what only it does.',
  },
  'restates-name': {
    message: "Tool '{tool}': the minimal description (\"{text}\") only restates the tool's name.",
    hint: 'Say what the tool does and when it is the right choice, in words the name does not already give.',
  },
  'too-few-queries':
    "Too few queries to judge: the tools' own descriptions gave {queries|query|queries} ({tools|tool} gave any); a tool is judged on {min} or more of its own, and none gave {min}.",
  'selection-figures':
    "Tool '{tool}': {percent} % of {queries|query|queries} from its own description rank it first (MRR {mrr}).",
  'selection-summary':
    'Selection by minimal description (BM25 over names and minimal descriptions): {percent} % of {queries|query|queries} rank their own tool first, mean reciprocal rank {mrr}, over {tools|tool}.',
} as const;

/**
 * A tool as selection sees it. With its full description, the listed text is its minimal one and
 * the full description says what it is for; without, the first sentence is what a minimal list
 * would keep and the rest of the listed text is asked.
 */
export function selectionTool(name: string, listed: string, full: Record<string, unknown> | undefined): SelectionTool {
  return { name, minimal: full ? listed : minimalFrom(listed), queries: queriesOf(full, listed) };
}

/** The queries a full description gives: its sentences, its examples' descriptions, its usage patterns. */
export function queriesOf(full: Record<string, unknown> | undefined, listed: string): string[] {
  if (!full) return sentences(listed).slice(1);
  const out = typeof full.description === 'string' ? sentences(full.description) : [];
  if (Array.isArray(full.examples))
    for (const e of full.examples)
      if (typeof (e as { description?: unknown })?.description === 'string')
        out.push((e as { description: string }).description);
  const patterns = (full.usage_guidance as { common_patterns?: unknown } | undefined)?.common_patterns;
  if (Array.isArray(patterns)) for (const p of patterns) if (typeof p === 'string') out.push(p);
  // Placeholders init writes for a human to fill in say nothing about the tool.
  return out.filter((q) => !q.startsWith('REVIEW:') && terms(q).length > 0);
}

/**
 * Ranks every tool for every query; the figures per tool and for the whole server. A sentence that
 * more than one tool says ("Only works within allowed directories.") is about none of them, and one
 * that names another tool compares the two: neither is asked.
 */
export function selectionFigures(listed: readonly SelectionTool[]): SelectionFigures {
  // A name listed twice is one tool (the duplicate is mcp-tool-names' finding).
  const given = unique(listed);
  const said = new Map<string, number>();
  for (const t of given) for (const q of new Set(t.queries.map(normal))) said.set(q, (said.get(q) ?? 0) + 1);
  // A sentence that names another tool ("Find the id with list_notes first") is about choosing between them.
  const names = given.map((t) => t.name);
  const namesOther = (q: string, own: string) => names.some((n) => n !== own && n.length > 2 && q.includes(n));
  const tools = given.map((t) => ({
    ...t,
    queries: t.queries.filter((q) => said.get(normal(q)) === 1 && !namesOther(q, t.name)),
  }));
  // Filler words ('the', 'a', 'of') match every tool: left out of the index and of the queries.
  const index = new MiniSearch<{ id: number; text: string }>({
    fields: ['text'],
    tokenize: terms,
    processTerm: (t) => (FILLER.has(t) ? null : stem(t)),
  });
  const docs = tools.map((t, id) => ({ id, text: `${nameTerms(t.name).join(' ')} ${t.minimal}` }));
  index.addAll(docs);
  // Words in more than half of the tools (the server's subject, a padding every entry carries) rank
  // no tool above another: they are left out of the queries too (with four tools or more), which
  // also keeps a large, uniform catalogue from scoring every tool for every word.
  const frequent = new Set<string>();
  if (tools.length >= 4) {
    const df = new Map<string, number>();
    for (const doc of docs) for (const t of new Set(terms(doc.text).map(stem))) df.set(t, (df.get(t) ?? 0) + 1);
    for (const [t, n] of df) if (n * 2 > tools.length) frequent.add(t);
  }
  const processQueryTerm = (t: string) => (FILLER.has(t) || frequent.has(stem(t)) ? null : stem(t));
  let all = 0;
  let firsts = 0;
  let rrSum = 0;
  const out: ToolFidelity[] = tools.map((tool, id) => {
    let top = 0;
    let rr = 0;
    const winners = new Map<number, number>();
    let asked = 0;
    for (const query of tool.queries) {
      const hits = index.search(query, { combineWith: 'OR', processTerm: processQueryTerm });
      // A query that shares no word with any tool shows no confusion: it is not counted.
      if (!hits.length) continue;
      asked++;
      const rank = hits.findIndex((h) => h.id === id);
      if (rank === 0) top++;
      if (rank >= 0) rr += 1 / (rank + 1);
      if (rank !== 0 && hits[0]) winners.set(hits[0].id as number, (winners.get(hits[0].id as number) ?? 0) + 1);
    }
    const n = asked;
    all += n;
    firsts += top;
    rrSum += rr;
    const winner = [...winners].sort((a, b) => b[1] - a[1])[0]?.[0];
    return {
      tool: tool.name,
      queries: n,
      top1: n ? top / n : 1,
      mrr: n ? rr / n : 1,
      ...(winner !== undefined ? { winner: tools[winner].name } : {}),
    };
  });
  return { tools: out, queries: all, top1: all ? firsts / all : 1, mrr: all ? rrSum / all : 1 };
}

/** The findings: tools hard to find, near-duplicate descriptions, descriptions that restate the name. */
export function selectionProblems(
  listed: readonly SelectionTool[],
  figures: SelectionFigures,
): Array<RuleProblem & { tool: string }> {
  const tools = unique(listed);
  const problems: Array<RuleProblem & { tool: string }> = [];
  for (const f of figures.tools) {
    if (f.queries >= MIN_QUERIES && f.top1 < LOW_TOP1 && f.winner) {
      problems.push({
        tool: f.tool,
        code: 'not-found-first',
        pointer: '',
        level: 'warn',
        args: {
          tool: f.tool,
          percent: Math.round(f.top1 * 100),
          queries: f.queries,
          mrr: f.mrr.toFixed(2),
          winner: f.winner,
        },
      });
    }
  }
  // Words most tools share (the server's subject, a padding every entry carries) tell no two apart.
  const sets = tools.map((t) => new Set(terms(t.minimal)));
  const common = new Map<string, number>();
  for (const set of sets) for (const w of set) common.set(w, (common.get(w) ?? 0) + 1);
  const distinctive =
    tools.length >= 4 ? sets.map((set) => new Set([...set].filter((w) => common.get(w)! * 2 <= tools.length))) : sets;
  for (let i = 0; i < tools.length; i++) {
    const own = sets[i];
    // "Get the note." for get_note: nothing but the name's words (a plural or -s form counted as the word).
    const name = new Set(nameTerms(tools[i].name));
    const meaning = [...own].filter((w) => !FILLER.has(w));
    if (own.size > 0 && meaning.every((w) => name.has(w) || name.has(w.replace(/e?s$/, '')))) {
      problems.push({
        tool: tools[i].name,
        code: 'restates-name',
        pointer: '',
        level: 'warn',
        args: { tool: tools[i].name, text: tools[i].minimal.slice(0, 80) },
      });
    }
  }
  // Pairs are found by prefix filtering (an all-pairs similarity join): two sets with Jaccard ≥ t
  // share one of the rarest |s| − ⌈t·|s|⌉ + 1 words of each, so only those words are indexed.
  const rarest = (set: Set<string>) => [...set].sort((a, b) => common.get(a)! - common.get(b)! || (a < b ? -1 : 1));
  const byWord = new Map<string, number[]>();
  const pairs = new Set<string>();
  distinctive.forEach((set, i) => {
    if (!set.size) return;
    const prefix = rarest(set).slice(0, set.size - Math.ceil(NEAR_DUPLICATE * set.size) + 1);
    for (const w of prefix) {
      const seen = byWord.get(w) ?? byWord.set(w, []).get(w)!;
      for (const j of seen) pairs.add(`${j},${i}`);
      seen.push(i);
    }
  });
  for (const pair of [...pairs].sort((a, b) => {
    const [a1, a2] = a.split(',').map(Number);
    const [b1, b2] = b.split(',').map(Number);
    return a1 - b1 || a2 - b2;
  })) {
    const [i, j] = pair.split(',').map(Number) as [number, number];
    const mine = distinctive[i];
    const other = distinctive[j];
    const shared = [...mine].filter((w) => other.has(w));
    if (shared.length / (mine.size + other.size - shared.length) >= NEAR_DUPLICATE) {
      problems.push({
        tool: tools[i].name,
        code: 'near-duplicate',
        pointer: '',
        level: 'warn',
        args: { tool: tools[i].name, other: tools[j].name, shared: shared.slice(0, 8).join(', ') },
      });
    }
  }
  return problems;
}

function normal(text: string): string {
  return terms(text).join(' ');
}

/** Each name once; past MAX_RANKED_TOOLS an even sample of the tools (the figures then describe the sample). */
function unique(tools: readonly SelectionTool[]): SelectionTool[] {
  const seen = new Set<string>();
  const once = tools.filter((t) => !seen.has(t.name) && seen.add(t.name));
  if (once.length <= MAX_RANKED_TOOLS) return once;
  const step = once.length / MAX_RANKED_TOOLS;
  return Array.from({ length: MAX_RANKED_TOOLS }, (_, k) => once[Math.floor(k * step)]);
}

/** A light stem: 'reads' and 'read', 'notes' and 'note' are one term (not 'class', not 'is'). */
function stem(term: string): string {
  return term.length > 3 && term.endsWith('s') && !term.endsWith('ss') ? term.slice(0, -1) : term;
}

/** A tool's selection figures as a finding's args: what the score reads (`mrr`), the same in a live run and a lint. */
export function selectionFigureArgs(f: {
  tool: string;
  top1: number;
  queries: number;
  mrr: number;
}): Record<string, string | number> {
  return { tool: f.tool, percent: Math.round(f.top1 * 100), queries: f.queries, mrr: f.mrr.toFixed(2), top1: f.top1 };
}
