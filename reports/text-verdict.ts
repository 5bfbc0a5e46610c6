// The text report's opening block: whether the server implements progressive disclosure, per era,
// with its token and selection figures and the clients it reaches.
import { cutShort } from '../src/core/findings.js';
import { budgetSentence, reachSentence, reportVerdictSentence } from '../src/core/verdict-sentence.js';
import { type ChalkInstance } from 'chalk';
import type { CheckReport } from '../src/generated/report.js';
import { listing, plural, sanitizeLine } from '../src/util/text.js';
import { budgetsOf, notCalledSentences, reachOf } from './group.js';

const VERDICT_PAINT = {
  yes: (c: ChalkInstance) => c.green,
  partly: (c: ChalkInstance) => c.yellow,
  no: (c: ChalkInstance) => c.red,
};

/** The verdict block that opens a live report: does the server implement progressive disclosure? */
export function renderVerdict(report: CheckReport, c: ChalkInstance, verbose: boolean): string[] {
  const v = report.verdict;
  if (!v) return [];
  const lines = [
    '',
    VERDICT_PAINT[v.implements](c).bold(`PROGRESSIVE DISCLOSURE: ${v.implements.toUpperCase()}`),
    `  ${sanitizeLine(reportVerdictSentence(report))}`,
  ];
  // The verdict is about progressive disclosure; other checks can still fail the run: said, so that a yes and an exit 1
  // agree.
  // Checks the run's time cut did not fail: they were not run (or stopped), said as such.
  const others = report.results.filter((r) => (r.status === 'fail' || r.status === 'error') && !r.spec.criterion);
  const failed = others.filter((r) => !cutShort(r)).map((r) => r.id);
  const cut = others.filter(cutShort).map((r) => r.id);
  const names = (ids: string[]) => listing([...new Set(ids)], 6).replace(/'/g, '');
  if (v.implements === 'yes' && failed.length)
    lines.push(
      c.yellow(`  yes for progressive disclosure; other checks fail (${names(failed)}): they fail the run (exit 1)`),
    );
  if (v.implements === 'yes' && cut.length)
    lines.push(
      c.yellow(
        `  yes for progressive disclosure; other checks were cut by --max-duration (${names(cut)}): not run, no verdict on them (exit 1)`,
      ),
    );
  if (v.selection) lines.push(c.gray(`  found by their minimal descriptions: ${selectionLine(v.selection)}`));
  if (v.notTestable.length) lines.push(c.gray(`  not testable without the resource: ${v.notTestable.join(', ')}`));
  const reach = reachOf(report);
  if (reach)
    lines.push((reach.toolForm && reach.toolFormWorks ? c.gray : c.yellow)(`  ${sanitizeLine(reachSentence(reach))}`));
  const budgets = budgetsOf(report);
  // A first contact keeps to what matters: the budget line when a client is past its limit (-v: always).
  const firstContact = v.implements === 'no' && !verbose;
  if (budgets && (!firstContact || budgets.clients.some((b) => b.fit === 'over')))
    lines.push(
      (budgets.clients.some((b) => b.fit === 'over' && b.drops) ? c.yellow : c.gray)(
        `  ${sanitizeLine(budgetSentence(budgets))}`,
      ),
    );
  // What would prove the unproven criteria: the hint their own finding carries.
  const unprovenIds = new Set((v.unproven ?? []).map((u) => u.id));
  const unprovenHint = report.results
    .filter((r) => r.status === 'skip' && unprovenIds.has(r.id))
    .map((r) => [...r.findings].reverse().find((f) => f.level === 'info' && f.hint)?.hint)
    .find((h) => h);
  if (v.unproven?.length && unprovenHint)
    lines.push(c.gray(`  to prove ${v.unproven.length === 1 ? 'it' : 'them'}: ${sanitizeLine(unprovenHint)}`));
  for (const s of notCalledSentences(v.notCalled ?? [], (tools) => listing(tools, 6)))
    lines.push(c.gray(`  ${s.heading}: ${sanitizeLine(s.text)}`));
  const e = report.exploration;
  if (e && !e.skipped) {
    const found = e.found
      ? `; ${plural(e.found, 'broken rule')} shrunk to a shortest sequence (${plural(e.replays, 'replay')})`
      : ', nothing diverged from the model';
    // Over stdio the idle session is the probe, lent once the checks are done: not one of its own.
    const lent = e.idleHold?.session === 'probe';
    lines.push(
      c.gray(
        `  explored: ${plural(e.requests, 'request')} in ${lent ? `${plural(e.sessions - 1, 'session')} of its own and the probe` : `${plural(e.sessions, 'session')} of its own`}${e.idleMs !== undefined ? ` (${lent ? 'the probe' : 'one'} idle ${(e.idleMs / 1000).toFixed(1)} s${e.idleCut ? ', cut short by --max-duration' : ''}${e.idleHold ? `: '${e.idleHold.tool}' fetched at ${e.idleHold.fetchedAt.toFixed(2)} s, still let through at ${e.idleHold.calledAt.toFixed(2)} s${e.idleHold.newConnection ? ' on a new connection' : ''}` : ''})` : ''}, seed ${e.seed}${e.seedFrom === 'listing' ? ' (a digest of its tools/list: the same on every run of this server)' : e.seedFrom === 'random' ? ' (--seed random)' : ''}${found} (--seed ${e.seed} replays it)`,
      ),
    );
  }
  return lines;
}

/**
 * The selection figures in words, with how many tools gave queries (a tool whose description has one sentence gives
 * none).
 */
function selectionLine(s: NonNullable<NonNullable<CheckReport['verdict']>['selection']>): string {
  const asked = s.tools.filter((t) => t.queries > 0).length;
  const listed = s.listed ?? s.tools.length;
  const of =
    asked < listed
      ? ` (queries from ${asked} of ${listed} tools: the others' descriptions give no sentence that is theirs alone)`
      : '';
  return `${Math.round(s.top1 * 100)} % of ${plural(s.queries, 'query', 'queries')} from the tools' own descriptions rank their tool first (BM25, MRR ${s.mrr.toFixed(2)})${of}`;
}
