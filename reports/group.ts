import type { CheckReport, CheckResult, Finding, Verdict } from '../src/generated/report.js';
import { cutShort } from '../src/core/findings.js';
import { listing, plural } from '../src/util/text.js';

/** A finding as shown, with the findings of the same code on other tools folded into it. */
export interface Entry {
  finding: Finding;
  /** The same code, the same level, on other tools (empty when shown alone). */
  others: Finding[];
}

/** How a check is shown: its status, or `accepted` when it gates only because a baseline accepts its findings. */
export type ShownStatus = CheckResult['status'] | 'accepted';

/**
 * A check whose every error or warning is accepted by the baseline passes the gate, but nothing
 * about it passed: it is shown as accepted (never with a ✓), beside the failures it hides.
 */
export function shownStatus(r: CheckResult): ShownStatus {
  if (r.status !== 'pass' && r.status !== 'warn') return r.status;
  const gating = r.findings.filter((f) => f.level !== 'info');
  return gating.length && gating.every((f) => f.accepted) ? 'accepted' : r.status;
}

/** Fewer findings than this of one code are shown one by one. */
const GROUP_FROM = 2;

/**
 * Folds the findings of one check that share a code and a level and sit on different tools into
 * one entry (in report order), so that one problem found on 14 tools reads as one; `verbose`
 * lists every finding on its own. Lint findings (files) are folded only when `files` is set and
 * only below error level: an error's every position must be seen, a warning repeated in 84 places
 * (a folder fresh from `init`) reads better as one line with the files it is in.
 */
export function entries(findings: readonly Finding[], verbose = false, options: { files?: boolean } = {}): Entry[] {
  if (verbose) return findings.map((finding) => ({ finding, others: [] }));
  const key = (f: Finding) => {
    // Findings of one code that say what kind they are (a Slack token, an AWS key, a path) fold by kind.
    const kind = typeof f.args.what === 'string' ? f.args.what : '';
    const same = `${f.code}\0${kind}\0${f.level}\0${f.accepted ? 1 : 0}`;
    if (f.location?.file) return options.files && f.level !== 'error' ? `file\0${same}` : undefined;
    return f.location?.tool !== undefined ? same : undefined;
  };
  const counts = new Map<string, number>();
  for (const f of findings) {
    const k = key(f);
    if (k) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const groups = new Map<string, Entry>();
  const out: Entry[] = [];
  for (const f of findings) {
    const k = key(f);
    if (!k || counts.get(k)! < GROUP_FROM) {
      out.push({ finding: f, others: [] });
      continue;
    }
    const group = groups.get(k);
    if (group) group.others.push(f);
    else {
      const entry = { finding: f, others: [] };
      groups.set(k, entry);
      out.push(entry);
    }
  }
  return out;
}

/** "the same on 12 more tools: 'write_file', 'edit_file' … and 4 more" (or "in 83 more places in 14 files: …") */
export function othersLine(entry: Entry, max = 8): string {
  if (entry.finding.location?.file) {
    const all = [entry.finding, ...entry.others].map((f) => f.location?.file ?? '?');
    const files = [...new Set(all)];
    // One finding per file: name the other files; several per file: name every file they are in.
    const onePerFile = files.length === all.length;
    const named = onePerFile ? files.slice(1) : files;
    // File names alone when they tell the files apart (they mostly do: one check, one kind of
    // file); else the paths below the folder all of them share.
    const names = named.map((f) => f.slice(f.lastIndexOf('/') + 1));
    const common = new Set(names).size === named.length ? undefined : commonFolder(files).length;
    const shown = common === undefined ? names : named.map((f) => f.slice(common));
    const n = entry.others.length;
    // Info lines of one kind differ in their figures (a count per tool): alike, not the same.
    if (entry.finding.level === 'info')
      return `${n} more like it, ${onePerFile ? 'one in each of: ' : `in ${files.length === 1 ? '' : `${files.length} files: `}`}${listing(shown, max)} (--verbose lists each)`;
    const where = onePerFile
      ? `in ${n} more file${n === 1 ? '' : 's'}`
      : `in ${n} more place${n === 1 ? '' : 's'}, in ${files.length} file${files.length === 1 ? '' : 's'}`;
    return `the same ${where}: ${listing(shown, max)} (--verbose lists each)`;
  }
  const tools = [...new Set(entry.others.map((f) => f.location?.tool ?? '?'))];
  return `the same on ${tools.length} more tool${tools.length === 1 ? '' : 's'}: ${listing(tools, max)}`;
}

/** The longest folder prefix (ending in '/') that every path starts with. */
function commonFolder(paths: string[]): string {
  let prefix = paths[0] ?? '';
  for (const p of paths) while (!p.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix.slice(0, prefix.lastIndexOf('/') + 1);
}

/** A report's counts in words ("1 warning", "2 errors"), as every reporter says them. */
export function countsLine(
  s: {
    passed: number;
    failed: number;
    warnings: number;
    skipped: number;
    errors: number;
    accepted?: number;
  },
  results: readonly CheckResult[] = [],
): string {
  return `${s.passed} passed, ${s.accepted ? `${s.accepted} accepted (baseline), ` : ''}${s.failed} failed, ${plural(s.warnings, 'warning')}, ${s.skipped} skipped, ${errorsPart(s.errors, results)}`;
}

/** "2 errors", or "1 error, 31 cut by --max-duration": the checks the run's time cut are said apart, in every format. */
export function errorsPart(errors: number, results: readonly CheckResult[]): string {
  const cut = results.filter(cutShort).length;
  if (!cut) return plural(errors, 'error');
  return `${errors - cut ? `${plural(errors - cut, 'error')}, ` : ''}${cut} cut by --max-duration`;
}

/** The tools a run left uncalled, grouped by their own reason (each tool keeps its reason). */
export function notCalledByReason(
  notCalled: ReadonlyArray<{ tool: string; why: string }>,
): Array<{ tools: string[]; why: string }> {
  const groups = new Map<string, string[]>();
  for (const n of notCalled) (groups.get(n.why) ?? groups.set(n.why, []).get(n.why)!).push(n.tool);
  return [...groups].map(([why, tools]) => ({ tools, why }));
}

/**
 * The verdict's tools not called, as sentences: those left uncalled to do no harm, and those left
 * uncalled for another reason (an earlier call got no answer, a task-only tool), each with its reason.
 */
export function notCalledSentences(
  notCalled: ReadonlyArray<{ tool: string; why: string; harm?: boolean }>,
  list: (tools: string[]) => string,
): Array<{ heading: string; text: string }> {
  const out: Array<{ heading: string; text: string }> = [];
  for (const [harm, heading] of [
    [true, 'not called, to do no harm'],
    [false, 'not called'],
  ] as const) {
    const these = notCalled.filter((n) => (n.harm ?? true) === harm);
    if (these.length)
      out.push({
        heading,
        text: notCalledByReason(these)
          .map((g) => `${list(g.tools)} (${g.tools.length > 1 ? forEach(g.why) : g.why})`)
          .join('; '),
      });
  }
  return out;
}

/** A reason written of one tool ("it is …"), said of several: "each is …", "calls them". */
function forEach(why: string): string {
  return why
    .replace(/^(--safe-calls: )?it (is|can) /, '$1each $2 ')
    .replace(/^its /, "each one's ")
    .replace(/calls it\)/, 'calls them)');
}

/** The client budgets of a report's verdict: its own, or (several eras) the first era's that says them. */
export function budgetsOf(report: Pick<CheckReport, 'verdict' | 'eras'>): NonNullable<Verdict['budgets']> | undefined {
  return report.verdict?.budgets ?? report.eras?.map((e) => e.verdict?.budgets).find((b) => b !== undefined);
}

/** The reach of a report's verdict: its own, or (several eras) the first era's that says one. */
export function reachOf(report: Pick<CheckReport, 'verdict' | 'eras'>): NonNullable<Verdict['reach']> | undefined {
  return report.verdict?.reach ?? report.eras?.map((e) => e.verdict?.reach).find((r) => r !== undefined);
}

/** How many protocol eras a report's results cover (1 for a report of one era or of files). */
export function erasChecked(report: Pick<CheckReport, 'eras'>): number {
  return Math.max(1, (report.eras ?? []).filter((e) => e.checked).length);
}

/** A result's name as reports show it: its id, with its era when the report covers several. */
export function resultName(report: Pick<CheckReport, 'eras'>, r: CheckResult): string {
  return r.era && erasChecked(report) > 1 ? `${r.id} (${r.era})` : r.id;
}

/**
 * Results with a check shown once, without its era, where it appears in every era checked and
 * `alike` holds of its results (by default: always); the others one per era.
 */
export function acrossEras(
  report: Pick<CheckReport, 'eras'>,
  results: readonly CheckResult[],
  alike: (all: CheckResult[]) => boolean = () => true,
): CheckResult[] {
  const eras = erasChecked(report);
  if (eras < 2) return [...results];
  const byId = new Map<string, CheckResult[]>();
  for (const r of results) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
  const shown = new Set<string>();
  return results.flatMap((r) => {
    const all = byId.get(r.id)!;
    if (all.length !== eras || !alike(all)) return [r];
    if (shown.has(r.id)) return [];
    shown.add(r.id);
    const { era: _era, ...same } = r;
    return [same];
  });
}

/** The names of several results for one line: a check here in every era is named once, without its era. */
export function resultNames(
  report: Pick<CheckReport, 'eras'>,
  results: readonly CheckResult[],
  name: (r: CheckResult, shown: string) => string = (_r, shown) => shown,
): string[] {
  return acrossEras(report, results).map((r) => name(r, resultName(report, r)));
}

/**
 * A report's results for a table: a check that found nothing in any era (the same status in each,
 * no warnings or errors) is one row, without an era; the others one row per era.
 */
export function tableResults(report: Pick<CheckReport, 'eras' | 'results'>): CheckResult[] {
  const quiet = (r: CheckResult) => !r.findings.some((f) => f.level !== 'info');
  return acrossEras(report, report.results, (all) => all.every(quiet) && all.every((x) => x.status === all[0].status));
}

/**
 * What was checked, in one line: the command or URL and its kind, or the linted paths with how many files they held.
 */
export function targetLine(t: CheckReport['target']): { what: string; kind: string } {
  if (t.kind !== 'files') return { what: t.command ?? t.url ?? '', kind: t.kind };
  return {
    what: (t.paths ?? []).join(' '),
    kind: t.files !== undefined ? `lint, ${plural(t.files, 'file')} read` : 'lint',
  };
}
