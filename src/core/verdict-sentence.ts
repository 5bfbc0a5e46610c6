// The verdict in one sentence: the one place it is written, for every reporter (and for the
// JSON report's `summary`). The core decides the verdict as data; this says it.
import type { CheckReport, ClientBudgets, TokenFigures, Verdict } from '../generated/report.js';
import { formatArg } from './messages.js';

/** The verdict's data, without the sentence itself. */
export type VerdictData = Omit<Verdict, 'summary'>;

export function verdictSentence(v: VerdictData): string {
  const tokens = tokenSentence(v.tokens);
  if (v.implements === 'no') {
    const ran = v.unfetchedCallRan
      ? `, and calling '${v.unfetchedCallRan}' without fetching its description was not refused`
      : '';
    return `No: this server does not implement progressive disclosure — it lists no tool_descriptions resource${ran}.${tokens}`;
  }
  if (v.implements === 'yes' && v.notApplicable?.length) {
    return `Yes, as far as this era allows: every criterion that applies passes; descriptions are served on demand but calls are not gated, since ${v.era ?? 'this era'} over HTTP has no session to tie a grant to (PD v2.1 §5 needs one; ${v.notApplicable.join(', ')} do not apply).${tokens}`;
  }
  if (v.implements === 'yes') return `Yes: all nine progressive-disclosure criteria pass.${tokens}`;
  const run = v.criteriaRun ?? 0;
  const named = v.failing.map((id, i) => `${id} (#${v.failingCriteria?.[i] ?? '?'})`);
  const unproven = v.unproven?.length ? ` Not proven (no failure): ${unprovenByReason(v.unproven)}.` : '';
  const why = v.failing.length
    ? `${v.failing.length} of ${run} criteria fail: ${named.join(', ')}`
    : v.unproven?.length
      ? `no criterion fails, but only ${run - v.unproven.length} of ${run} were proven`
      : `${run} of 9 criteria were run, and they pass`;
  const unlisted =
    v.resource && v.resource.source !== 'listed'
      ? ` The resource works at ${v.resource.uri} (${v.resource.source === 'refusal' ? "named by a refusal's resource_uri" : "the spec's default URI"}), but resources/list does not list it; the other criteria were tested against it.`
      : '';
  return `Partly: ${why}.${unproven}${unlisted}${tokens}`;
}

/**
 * Which clients a server's progressive disclosure reaches, in one sentence (for the line under
 * the verdict): every client when it offers a working tool form, else only those whose model reads
 * resources — with the fix for the others.
 */
export function reachSentence(reach: NonNullable<Verdict['reach']>): string {
  const readers = listWords(reach.readsResources);
  const others = listWords(reach.toolsOnly);
  if (reach.toolForm && reach.toolFormWorks)
    return `reaches every client: ${readers} read the resource; ${others} fetch through ${reach.toolForm}.`;
  if (reach.toolForm && reach.toolFormWorks === undefined)
    return `reaches ${readers} (their model reads resources); in ${others} the tool form ${reach.toolForm} is the only way to fetch, and this run did not come to a verdict on it (pd-descriptions-tool).`;
  if (reach.toolForm)
    return `reaches ${readers} (their model reads resources); in ${others} the tool form ${reach.toolForm} is the only way to fetch, and it fails pd-descriptions-tool.`;
  return `reaches ${readers} (their model reads resources); in ${others} every call will be refused, since their model cannot read a resource — offer the tool form of the resource (docs/adopting.md, "Progressive disclosure in every client"), or put mcp-pd-check serve in front.`;
}

/**
 * How the server's tools/list fits what each client does with many tools, in one sentence (the
 * line under the reach): past a budget first, with what the client then does.
 */
export function budgetSentence(b: ClientBudgets): string {
  const said = (fit: ClientBudgets['clients'][number]['fit']) => b.clients.filter((c) => c.fit === fit);
  const past = said('over').map((c) => `past the ${c.limit} of ${c.client} (it ${c.what})`);
  // Near is past where the client starts to act, not close to its limit: both are said.
  const near = said('near').map(
    (c) => `${c.soft ? `over ${c.soft}, ` : ''}below the ${c.limit} of ${c.client} (it ${c.what})`,
  );
  const within = said('fits').map((c) => `the ${c.limit} of ${c.client}`);
  const parts = [...past, ...near, ...(within.length ? [`within ${listWords(within)}`] : [])];
  return `Client budgets: ${formatArg(b.tools)} tool${b.tools === 1 ? '' : 's'}, ${formatArg(b.tokens)} tokens in tools/list — ${parts.join('; ')}.`;
}

function listWords(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The unproven criteria, those with the same reason said together: "a, b (why); c, why". */
function unprovenByReason(unproven: NonNullable<Verdict['unproven']>): string {
  const byWhy = new Map<string, string[]>();
  for (const u of unproven) byWhy.set(u.why, [...(byWhy.get(u.why) ?? []), u.id]);
  return [...byWhy]
    .map(([why, ids]) => (ids.length === 1 ? `${ids[0]}, ${why}` : `${ids.join(', ')} (${why})`))
    .join('; ');
}

/** The token figures in one sentence. */
function tokenSentence(t: TokenFigures | undefined): string {
  if (!t) return '';
  const count = t.described?.of ?? t.tools.length;
  const n = `${formatArg(count)} tool${count === 1 ? '' : 's'}`;
  if (t.estimate !== undefined)
    return ` ${n} cost ${formatArg(t.listed)} tokens in every prompt; listed minimally, as serve would list them, ≈ ${formatArg(t.estimate)}.`;
  if (t.full !== undefined) {
    // Fewer described than listed: the saving is of those described, said so; tools/list's cost is the whole list.
    const compared = t.described?.listed ?? t.listed;
    const saved = t.full > 0 ? Math.round((1 - compared / t.full) * 100) : 0;
    if (t.described)
      return ` tools/list costs ${formatArg(t.listed)} tokens for ${n}; the full descriptions of the ${formatArg(t.described.tools)} read cost ${formatArg(t.full)} against their ${formatArg(t.described.listed)} listed (${saved} % saved).`;
    return ` tools/list costs ${formatArg(t.listed)} tokens for ${n}; their full descriptions ${formatArg(t.full)} (${saved} % saved).`;
  }
  return '';
}

/**
 * A report's verdict in words: its one verdict's sentence, or, when several protocol eras were
 * checked, each era's own ("For 2025-11-25 clients — Yes: … For 2026-07-28 clients — …").
 */
export function reportVerdictSentence(report: Pick<CheckReport, 'verdict' | 'eras'>): string {
  const perEra = (report.eras ?? []).map((e) => e.verdict).filter((v): v is Verdict => v !== undefined);
  if (perEra.length > 1) return erasSentence(perEra);
  return report.verdict ? verdictSentence(report.verdict) : '';
}

/** Each era's verdict sentence, named by its era. */
export function erasSentence(verdicts: readonly VerdictData[]): string {
  const said = verdicts.map((v) => verdictSentence(v));
  // "Alike" only when the eras fail the same criteria too: the same words can cover different failures.
  const sameFailures = verdicts.every(
    (v) => JSON.stringify(v.failing ?? []) === JSON.stringify(verdicts[0].failing ?? []),
  );
  if (sameFailures && said.every((x) => x === said[0]))
    return `For clients of ${verdicts.map((v) => v.era ?? '?').join(' and ')} alike — ${said[0]}`;
  return verdicts.map((v, i) => `For ${v.era ?? '?'} clients — ${said[i]}`).join(' ');
}
