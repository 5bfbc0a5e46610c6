// The description-quality score (docs/quality.md, "The score"): 0–100 per tool and per server, from
// the findings of the checks that judge what the model reads and, live, from how well each tool is
// found by its minimal description. A server is as usable as its worst tool: its score is the mean
// of its tools' and their minimum, halved, less what is wrong with the server's own texts. Computed
// once, from a report's results, for a live run and a lint alike; reporters show it, the CLI gates
// on it (--min-score). The weights are data, published in the docs (a test keeps them in step).
import type { CheckResult, QualityScore, ToolScore } from '../generated/report.js';
import { cutShort, SHARED_MESSAGES } from './findings.js';

/** What each finding takes off, and how the parts weigh (docs/quality.md, "The score"). */
export const SCORE_WEIGHTS = {
  /** A distinct (check, code) that fails on a tool (an error). */
  toolError: 30,
  /** A distinct (check, code) that warns on a tool. */
  toolWarning: 10,
  /** A distinct (check, code) that fails on the server's own texts (the resource, instructions, listing). */
  serverError: 20,
  /** A distinct (check, code) that warns on the server's own texts. */
  serverWarning: 5,
  /** The share of a tool's score that is how well it is found (mean reciprocal rank), when it gave queries. */
  selection: 0.25,
  /** The share of a server's score that is its worst tool's (the rest is the mean of its tools'). */
  worstTool: 0.5,
} as const;

/** What the model reads is said in words; a protocol failure (a schema in tools/list, no resource) is not theirs. */
const MINIMAL_TEXT = ['no-description', 'too-few-words', 'details-in-description'];
const FULL_TEXT = ['no-examples', 'example-invalid', 'no-error-guidance'];
const SELECTION = ['not-found-first', 'near-duplicate', 'restates-name'];

/**
 * The findings of ours that judge what the model reads, by check (besides every finding of the
 * quality plugin): the words of the descriptions, the resource's and how well each tool is found —
 * never whether the server implements the protocol (that is the verdict's).
 */
export const SCORED_CODES: Readonly<Record<string, readonly string[]>> = {
  'pd-minimal-descriptions': MINIMAL_TEXT,
  'pd-full-descriptions': FULL_TEXT,
  'pd-resource-listed': [
    'name-unclear',
    'no-description',
    'no-tools-list-step',
    'no-fetch-requirement',
    'no-query-syntax',
    'no-refusal-mention',
    'no-steps',
    'no-uri-example',
    'no-parameters-mention',
    'no-authorization-mention',
  ],
  'pd-selection-fidelity': SELECTION,
  'lint-tool-descriptions': FULL_TEXT,
  'lint-tools-list': [...MINIMAL_TEXT, ...SELECTION],
  'lint-no-secrets': ['credential', 'disclosure'],
};

export const isScored = (r: CheckResult) => r.plugin?.name === 'quality' || r.id in SCORED_CODES;
/** The runner's codes (a check not run, stopped, crashed): they say nothing of the server's texts. */
const RUNNER_CODES: ReadonlySet<string> = new Set(Object.keys(SHARED_MESSAGES));

const countsFor = (r: CheckResult, code: string) =>
  r.plugin?.name === 'quality' || (SCORED_CODES[r.id]?.includes(code) ?? false);

/** The score of a report's results: undefined when no check that judges the texts ran. */
export function scoreOf(results: readonly CheckResult[], tools: readonly string[] = []): QualityScore | undefined {
  const all = results.filter(isScored);
  // A rule the run's time cut in every era judged nothing: a score without it would be too kind.
  const judged = new Set(all.filter((r) => !cutShort(r)).map((r) => r.id));
  if (all.some((r) => !judged.has(r.id))) return undefined;
  const scored = all.filter((r) => !cutShort(r));
  if (!scored.some((r) => r.status !== 'skip')) return undefined;
  // A lint of files that hold no tool and no text the quality rules read (a config, a lock) scores nothing.
  if (!tools.length && !scored.some((r) => r.plugin?.name === 'quality' && r.status !== 'skip')) return undefined;
  // One problem counts once per tool, whatever the era or the number of places it was found in.
  const toolProblems = new Map<string, Map<string, 'error' | 'warning'>>();
  const serverProblems = new Map<string, 'error' | 'warning'>();
  const selection = new Map<string, number>();
  for (const r of scored) {
    for (const f of r.findings) {
      const tool =
        f.location?.tool || (typeof f.args.tool === 'string' ? f.args.tool : undefined) || toolOfFile(f.location?.file);
      if (f.code === 'selection-figures' && tool && typeof f.args.mrr === 'string')
        selection.set(tool, Number(f.args.mrr));
      if ((f.level !== 'error' && f.level !== 'warning') || RUNNER_CODES.has(f.code) || !countsFor(r, f.code)) continue;
      const key = `${r.id} ${f.code}`;
      const into = tool ? (toolProblems.get(tool) ?? toolProblems.set(tool, new Map()).get(tool)!) : serverProblems;
      if (into.get(key) !== 'error') into.set(key, f.level);
    }
  }
  const names = [...new Set([...tools, ...toolProblems.keys(), ...selection.keys()])].sort();
  const w = SCORE_WEIGHTS;
  const toolScores: ToolScore[] = names.map((tool) => {
    const problems = [...(toolProblems.get(tool) ?? new Map<string, 'error' | 'warning'>())];
    const text = Math.max(
      0,
      100 - problems.reduce((sum, [, level]) => sum + (level === 'error' ? w.toolError : w.toolWarning), 0),
    );
    const mrr = selection.get(tool);
    const score = Math.round(mrr === undefined ? text : (1 - w.selection) * text + w.selection * 100 * mrr);
    return {
      tool,
      score,
      text,
      ...(mrr !== undefined ? { selection: Math.round(100 * mrr) } : {}),
      problems: problems.map(([key, level]) => ({ check: key.split(' ')[0], code: key.split(' ')[1], level })),
    };
  });
  const serverDeduction = [...serverProblems.values()].reduce(
    (sum, level) => sum + (level === 'error' ? w.serverError : w.serverWarning),
    0,
  );
  const scores = toolScores.map((t) => t.score);
  const mean = scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : 100;
  const worst = scores.length ? Math.min(...scores) : 100;
  const base = (1 - w.worstTool) * mean + w.worstTool * worst;
  const worstTool = toolScores.find((t) => t.score === worst);
  return {
    server: Math.max(0, Math.round(base - serverDeduction)),
    mean: Math.round(mean),
    ...(worstTool ? { worst: { tool: worstTool.tool, score: worstTool.score } } : {}),
    // A catalogue of thousands lists what lost points; the rest by name only.
    tools: toolScores.filter((t) => t.score < 100),
    perfect: toolScores.filter((t) => t.score === 100).map((t) => t.tool),
    serverProblems: [...serverProblems].map(([key, level]) => ({
      check: key.split(' ')[0],
      code: key.split(' ')[1],
      level,
    })),
  };
}

/** The tool a lint finding is about when only its file says so: tool_descriptions/<tool>.json. */
function toolOfFile(file: string | undefined): string | undefined {
  return file ? /(?:^|[\\/])tool_descriptions[\\/]([^\\/]+)\.json$/i.exec(file)?.[1] : undefined;
}
