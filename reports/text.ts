import { budgetSentence, reachSentence, reportVerdictSentence } from '../src/core/verdict-sentence.js';
import { Chalk, type ChalkInstance } from 'chalk';
import type { CheckReport, CheckResult, Finding, ReportTarget, TranscriptExchange } from '../src/generated/report.js';
import { clip, formatNumber, inlineJson, listing, plural, sanitizeLine, asText, shellWord } from '../src/util/text.js';
import {
  acrossEras,
  budgetsOf,
  entries,
  erasChecked,
  notCalledSentences,
  reachOf,
  othersLine,
  resultName,
  resultNames,
  shownStatus,
  targetLine,
  type Entry,
  type ShownStatus,
} from './group.js';
import { fenceOffCommands } from './ci-fence.js';
import { noAnswerText, sequenceLines } from './exchange-text.js';

export interface TextOptions {
  color: boolean;
  /** Every finding on its own line (by default one code on many tools is one entry). */
  verbose?: boolean;
  /** A GitHub Actions log: the whole report is fenced off from the runner's command parser. */
  commandsOff?: string;
  /** Width to clip JSON lines of transcripts to. */
  width?: number;
}

const GROUPS: Array<{
  status: ShownStatus;
  heading: string;
  mark: string;
  paint: (c: ChalkInstance) => ChalkInstance;
}> = [
  { status: 'fail', heading: 'FAILED', mark: '✗', paint: (c) => c.red },
  { status: 'error', heading: 'COULD NOT RUN', mark: '!', paint: (c) => c.magenta },
  { status: 'accepted', heading: 'ACCEPTED', mark: '≈', paint: (c) => c.cyan },
  { status: 'warn', heading: 'WARNINGS', mark: '⚠', paint: (c) => c.yellow },
  { status: 'skip', heading: 'SKIPPED', mark: '-', paint: (c) => c.gray },
  { status: 'pass', heading: 'PASSED', mark: '✓', paint: (c) => c.green },
];

const MAX_INFO_LINES = 40;

/** The human report: grouped by status, failures first, each with its proof and fix. */
export function renderText(report: CheckReport, options: TextOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const width = options.width ?? 160;
  const out: string[] = [];
  const t = report.target;
  const { what, kind } = targetLine(t);
  out.push(c.bold(`${report.tool.name} ${report.tool.version}`) + ` — ${sanitizeLine(what)} (${kind})`);
  // An era that was not checked is said, with why (the server does not speak it, the run's time ran out, an option left
  // it out).
  const notChecked = (report.eras ?? [])
    .filter((x) => !x.checked && x.why)
    .map((e) => `protocol ${e.era} not checked: ${sanitizeLine(clip(e.why!, width))}`);
  if (t.serverInfo) {
    out.push(
      `server: ${sanitizeLine(`${t.serverInfo.name ?? '?'} ${t.serverInfo.version ?? ''}`.trim())}` +
        (t.protocolVersion ? `, protocol ${sanitizeLine(t.protocolVersion)}` : '') +
        (t.transport && t.transport !== 'stdio' ? `, ${t.transport}` : '') +
        (notChecked.length ? c.gray(`; ${notChecked.join('; ')}`) : ''),
    );
  } else out.push(...notChecked.map((line) => c.gray(line)));
  out.push(...renderVerdict(report, c, options.verbose === true));
  // The criteria not testable without the resource are named once, in the verdict.
  const saidInVerdict = new Set(options.verbose ? [] : (report.verdict?.notTestable ?? []));
  const firstContact = report.verdict?.implements === 'no' && !options.verbose;
  for (const group of GROUPS) {
    const results = report.results.filter((r) => shownStatus(r) === group.status);
    if (!results.length) continue;
    const paint = group.paint(c);
    // Accepted: each of its findings fails the check, and a baseline accepts it (they do not fail the gate).
    const by =
      group.status === 'accepted' && report.baseline
        ? `, by the baseline ${sanitizeLine(report.baseline.file)}: they fail, and do not fail the gate`
        : '';
    // The count is of results (a check runs once per era); where fewer lines show them, the heading says how they are
    // shown.
    const lines = group.status === 'pass' && !firstContact ? acrossEras(report, results).length : results.length;
    const eras = erasChecked(report);
    const counted =
      lines < results.length && group.status === 'pass'
        ? `${results.length} results of ${eras} eras, on ${lines} lines: a check alike in every era is one`
        : `${results.length}`;
    out.push('', paint.bold(`${group.heading} (${counted}${by})`));
    const heading = out.length - 1;
    // A server without progressive disclosure: what passed is one line, what matters is above.
    if (r0IsPass(group.status) && firstContact) {
      out.push(
        `  ${paint(group.mark)} ${c.gray(sanitizeLine(listing(resultNames(report, results), 12).replace(/'/g, '')))}`,
      );
      continue;
    }
    if (group.status === 'skip' && !options.verbose) {
      // Skipped checks with the same reason are one line (the optional extensions, the HTTP-only checks).
      const byReason = new Map<string, CheckResult[]>();
      // A check of an era this run did not check says only that the server does not speak it (the JSON keeps it).
      const checkedEras = new Set((report.eras ?? []).filter((e) => e.checked).map((e) => e.era as string));
      const ofUncheckedEra = (r: CheckResult) => {
        const skip = r.findings[r.findings.length - 1];
        return (
          skip?.code === 'needs-era' &&
          !asText(skip.args.eras ?? '')
            .split(' and ')
            .some((era) => checkedEras.has(era))
        );
      };
      for (const r of results.filter((x) => !saidInVerdict.has(x.id) && !ofUncheckedEra(x))) {
        const reason = r.findings[r.findings.length - 1]?.message ?? '';
        byReason.set(reason, [...(byReason.get(reason) ?? []), r]);
      }
      let clipped = false;
      for (const [reason, same] of byReason) {
        const ids = resultNames(
          report,
          same,
          (r, shown) => `${shown}${r.spec.criterion ? ` #${r.spec.criterion}` : ''}`,
        ).join(', ');
        const said = reason.replace(/^This check needs/, same.length > 1 ? 'These checks need' : 'This check needs');
        clipped ||= said.length > width;
        out.push(`  ${paint(group.mark)} ${c.bold(ids)}  ${c.gray(sanitizeLine(clip(said, width)))}`);
      }
      // What the lines leave out, and how to see it.
      const left = results.filter((x) => saidInVerdict.has(x.id) || ofUncheckedEra(x)).length;
      const notes = [
        ...(byReason.size < results.length - left
          ? [`checks with the same reason on one line (${plural(byReason.size, 'line')})`]
          : []),
        ...(left ? [`${left} said in the verdict above (without the resource, or of an era not checked)`] : []),
        ...(clipped ? ['reasons cut at …'] : []),
      ];
      // A count the lines do not add up to is said, with how to see the rest; a first contact, which
      // keeps to one screen, says it in the heading.
      if (notes.length && !firstContact) out.push(c.gray(`  (${notes.join('; ')}: --verbose shows each in full)`));
      else if (notes.length)
        out[heading] =
          `${out[heading]}${c.gray(` — ${results.length - left} on ${plural(byReason.size, 'line')}${left ? `, ${left} in the verdict above` : ''}; --verbose shows each`)}`;
      continue;
    }
    // Checks the run's time cut before they started say the same: one line, as the skipped do.
    const notRun =
      group.status === 'error' && !options.verbose
        ? results.filter((r) => r.findings.length === 1 && r.findings[0].code === 'not-run')
        : [];
    if (notRun.length > 1) {
      out.push(
        `  ${paint(group.mark)} ${c.bold(
          listing(
            resultNames(report, notRun, (r, shown) => `${shown}${r.spec.criterion ? ` #${r.spec.criterion}` : ''}`),
            12,
          ).replace(/'/g, ''),
        )}`,
      );
      out.push(
        `      ${sanitizeLine(notRun[0].findings[0].message.replace('this check', 'these checks'))}`,
        `        ${c.gray(`fix: ${sanitizeLine(notRun[0].findings[0].hint ?? '')}`)}`,
      );
    }
    // A check that passed in every era checked is one line.
    for (const r of group.status === 'pass' ? acrossEras(report, results) : results) {
      if (notRun.length > 1 && notRun.includes(r)) continue;
      const crit = r.spec.criterion ? ` #${r.spec.criterion}` : '';
      out.push(
        `  ${paint(group.mark)} ${c.bold(resultName(report, r))}${c.gray(crit)}  ${r.title}  ${c.gray(`§${r.spec.section} ${r.spec.level}, ${r.durationMs} ms`)}`,
      );
      // What proves it, in one line (the exchanges are in the JSON report).
      if (options.verbose && r.proof)
        out.push(`      ${c.cyan('proven by:')} ${sanitizeLine(clip(r.proof.message, width * 2))}`);
      const shown = new Set<string>();
      // Info lines of a live run (token counts, forms seen) are for --verbose: the verdict sums them up.
      const showInfo = options.verbose || t.kind === 'files';
      const infos = showInfo
        ? entries(
            r.findings.filter((f) => f.level === 'info'),
            options.verbose,
          )
        : [];
      for (const e of entries(
        r.findings.filter((f) => f.level !== 'info'),
        options.verbose,
        { files: true },
      ))
        out.push(...renderEntry(e, c, width, shown));
      // Info lines (levels, token counts) can number thousands in a lint of many files.
      for (const e of infos.slice(0, MAX_INFO_LINES)) out.push(...renderEntry(e, c, width, shown));
      if (infos.length > MAX_INFO_LINES)
        out.push(c.gray(`      (${infos.length - MAX_INFO_LINES} more info lines in the JSON report)`));
    }
  }
  const s = report.summary;
  const total = report.results.length;
  // Checks the run's time cut (not run, or stopped) are said as such: they found nothing, failed nothing.
  const cut = report.results.filter(
    (r) => r.status === 'error' && r.findings.some((f) => f.code === 'not-run' || f.code === 'run-time-up'),
  ).length;
  const parts = [
    c.green(`${s.passed} passed`),
    (s.failed ? c.red : c.gray)(`${s.failed} failed`),
    (s.warnings ? c.yellow : c.gray)(plural(s.warnings, 'warning')),
    c.gray(`${s.skipped} skipped`),
    // Checks held back only by accepted findings: counted, so that the parts add up to the checks.
    ...(s.accepted ? [c.cyan(`${s.accepted} accepted by the baseline`)] : []),
    ...(s.errors - cut ? [c.magenta(plural(s.errors - cut, 'error'))] : cut ? [] : [c.gray('0 errors')]),
    ...(cut
      ? [c.magenta(`${cut} cut by --max-duration (not run or stopped: no verdict on them, and no pass either: exit 1)`)]
      : []),
  ];
  const b = report.baseline;
  if (b) {
    out.push(
      '',
      `baseline ${sanitizeLine(b.file)}: ${plural(b.accepted, 'finding')} accepted` +
        (b.stale.length
          ? c.yellow(`; ${b.stale.length} stale (fixed — run with --update-baseline to drop them):`)
          : ', none stale'),
    );
    for (const e of b.stale.slice(0, 20))
      out.push(c.gray(`  - ${sanitizeLine(e.check)}: ${sanitizeLine(clip(e.message, width))}`));
  }
  out.push(
    '',
    `${plural(total, 'check')}: ${parts.join(', ')} in ${(report.durationMs / 1000).toFixed(1)} s${costText(report.cost)}`,
  );
  if (report.verdict?.implements === 'no' && t.command) out.push(...nextSteps(report, t.command, t.launch, c));
  return fenceOffCommands(`${out.join('\n')}\n`, options.commandsOff);
}

/** What the run cost over stdio: server processes started, at once, and their memory at the peak. */
function costText(cost: CheckReport['cost']): string {
  if (!cost) return '';
  const memory = cost.peakMemoryMb !== undefined ? `, ${formatNumber(cost.peakMemoryMb)} MB at the peak` : '';
  // A heavy server's run is slower by design: the reader is told why.
  const why =
    cost.heavyMb !== undefined
      ? `${formatNumber(cost.heavyMb)} MB a process`
      : cost.heavyContainer
        ? 'a container a session'
        : undefined;
  const heavy = why ? `; a heavy server (${why}): the eras one after the other` : '';
  // So is one costly to start: its starts wait for one another.
  const costly = cost.costlyStart
    ? `; costly to start (${(cost.costlyStart.cpuMs / 1000).toFixed(1)} s of CPU, ${(cost.costlyStart.ms / 1000).toFixed(1)} s to its first answer): ${cost.costlyStart.startsAtOnce} starts at a time`
    : '';
  return `; ${plural(cost.processes, 'server process', 'server processes')} (${cost.atOnce} at once${memory}${heavy}${costly})`;
}

const VERDICT_PAINT = {
  yes: (c: ChalkInstance) => c.green,
  partly: (c: ChalkInstance) => c.yellow,
  no: (c: ChalkInstance) => c.red,
};

function r0IsPass(status: ShownStatus): boolean {
  return status === 'pass';
}

/** After a "no": the exact command that leads to a "yes" (and the one that serves its result). */
function nextSteps(report: CheckReport, command: string, launch: ReportTarget['launch'], c: ChalkInstance): string[] {
  const server = sanitizeLine(command);
  // The server starts as it did here: init with its --cwd, --env (by name: the report never holds a
  // value) and --inherit-env; serve with its --cwd (its upstream gets the environment its client gives it).
  const cwd = launch?.cwd ? `--cwd ${shellWord(sanitizeLine(launch.cwd))} ` : '';
  const started = `${cwd}${(launch?.env ?? []).map((name) => `--env ${sanitizeLine(name)} `).join('')}${launch?.inheritEnv ? '--inherit-env ' : ''}`;
  // A secret of the command is shown as ${VAR} (never its value), a --env by its name: said how to set them, so that
  // the line can be pasted.
  const variables = [
    ...new Set([
      ...[...server.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((m) => m[1]),
      ...(launch?.env ?? []).map(sanitizeLine),
    ]),
  ];
  return [
    '',
    `${c.bold('Next:')} write tool_descriptions/, a minimal tools/list, Tool Card stubs, a config and a CI workflow into pd/, then put them in front of this server, unchanged, with '${report.tool.name} serve --descriptions pd ${cwd}-- ${server}':`,
    `  ${report.tool.name} init --out pd ${started}-- ${server}`,
    ...(variables.length
      ? [
          c.gray(
            `  (${variables.join(', ')} ${variables.length === 1 ? 'is' : 'are'} read from the environment: export ${variables.map((v) => `${v}=…`).join(' ')} first; ${variables.length === 1 ? 'the value is' : 'their values are'} never printed)`,
          ),
        ]
      : []),
  ];
}

/** The verdict block that opens a live report: does the server implement progressive disclosure? */
function renderVerdict(report: CheckReport, c: ChalkInstance, verbose: boolean): string[] {
  const v = report.verdict;
  if (!v) return [];
  const lines = [
    '',
    VERDICT_PAINT[v.implements](c).bold(`PROGRESSIVE DISCLOSURE: ${v.implements.toUpperCase()}`),
    `  ${sanitizeLine(reportVerdictSentence(report))}`,
  ];
  // The verdict is about progressive disclosure; other checks can still fail the run: said, so that a yes and an exit 1
  // agree.
  const others = report.results
    .filter((r) => (r.status === 'fail' || r.status === 'error') && !r.spec.criterion)
    .map((r) => r.id);
  if (v.implements === 'yes' && others.length)
    lines.push(
      c.yellow(
        `  yes for progressive disclosure; other checks fail (${listing([...new Set(others)], 6).replace(/'/g, '')}): they fail the run (exit 1)`,
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
        `  explored: ${plural(e.requests, 'request')} in ${lent ? `${plural(e.sessions - 1, 'session')} of its own and the probe` : `${plural(e.sessions, 'session')} of its own`}${e.idleMs !== undefined ? ` (${lent ? 'the probe' : 'one'} idle ${(e.idleMs / 1000).toFixed(1)} s${e.idleHold ? `: '${e.idleHold.tool}' fetched at ${e.idleHold.fetchedAt.toFixed(2)} s, still let through at ${e.idleHold.calledAt.toFixed(2)} s${e.idleHold.newConnection ? ' on a new connection' : ''}` : ''})` : ''}, seed ${e.seed}${e.seedFrom === 'listing' ? ' (a digest of its tools/list: the same on every run of this server)' : e.seedFrom === 'random' ? ' (--seed random)' : ''}${found} (--seed ${e.seed} replays it)`,
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

/** A finding, with the same code on other tools folded into one line under it. */
function renderEntry(e: Entry, c: ChalkInstance, width: number, shown: Set<string>): string[] {
  const lines = renderFinding(e.finding, c, width, shown);
  if (e.others.length) lines.splice(1, 0, `        ${c.gray(`+ ${sanitizeLine(othersLine(e))}`)}`);
  return lines;
}

/** `shown` holds the exchanges already printed for this check: each is printed once. */
function renderFinding(f: Finding, c: ChalkInstance, width: number, shown: Set<string>): string[] {
  const lines: string[] = [];
  const tag = f.accepted
    ? c.gray(`${f.level} (accepted by baseline)`)
    : f.level === 'error'
      ? c.red('error')
      : f.level === 'warning'
        ? c.yellow('warning')
        : c.gray('info');
  const loc = f.location;
  const where = loc?.file
    ? ` ${c.underline(sanitizeLine(`${loc.file}${loc.line ? `:${loc.line}:${loc.column ?? 1}` : ''}`))}`
    : loc?.tool
      ? c.gray(` [${sanitizeLine(loc.tool)}]`)
      : '';
  const message = sanitizeLine(f.message);
  lines.push(`      ${tag}${where} ${f.level === 'info' ? c.gray(message) : message}`);
  if (f.hint) lines.push(`        ${c.cyan('fix:')} ${sanitizeLine(f.hint)}`);
  const [heading, ...steps] = sequenceLines(f);
  if (heading)
    lines.push(`        ${c.cyan(heading)}`, ...steps.map((step) => `          ${sanitizeLine(clip(step, width))}`));
  // The proof of a failure is shown in full; warnings and info stay one-liners.
  if (f.level === 'error' && !f.accepted && f.transcript?.length) {
    const recent = f.transcript.slice(-4);
    const sessions = [...new Set(recent.map((ex) => ex.session))];
    if (sessions.length === 2) {
      // Two sessions (an isolation failure): show them side by side.
      lines.push(
        ...sideBySide(
          sessions.map((s) =>
            recent.filter((ex) => ex.session === s).flatMap((ex) => renderExchange(ex, c, Math.floor(width / 2) - 12)),
          ),
          width,
        ),
      );
      return lines;
    }
    const fresh = recent.filter((ex) => !shown.has(exchangeKey(ex)));
    for (const ex of fresh) {
      shown.add(exchangeKey(ex));
      lines.push(...renderExchange(ex, c, width));
    }
    if (fresh.length < recent.length)
      lines.push(c.gray(`        (${plural(recent.length - fresh.length, 'exchange')} shown above)`));
    if (f.transcript.length > 4)
      lines.push(c.gray(`        (${f.transcript.length - 4} earlier exchanges in the JSON report)`));
  }
  return lines;
}

/** Two columns of already-rendered lines (ANSI colour codes do not count towards the width). */
function sideBySide(columns: string[][], width: number): string[] {
  const half = Math.floor(width / 2) - 2;
  const visible = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '').length;
  const [left = [], right = []] = columns.map((col) => col.map((l) => l.replace(/^ {8}/, '')));
  const rows = Math.max(left.length, right.length);
  const out: string[] = [];
  for (let i = 0; i < rows; i++) {
    const l = left[i] ?? '';
    out.push(`        ${l}${' '.repeat(Math.max(1, half - visible(l)))}│ ${right[i] ?? ''}`);
  }
  return out;
}

function exchangeKey(ex: TranscriptExchange): string {
  return `${ex.session}#${asText((ex.request as { id?: unknown }).id)}`;
}

function renderExchange(ex: TranscriptExchange, c: ChalkInstance, width: number): string[] {
  const request = ex.request as { params?: unknown; truncatedByChecker?: boolean; preview?: string };
  const sent = request.truncatedByChecker
    ? sanitizeLine(clip(request.preview ?? '', width))
    : inlineJson(request.params ?? {}, width);
  const lines = [c.gray(`        ${sanitizeLine(ex.session)} → ${sanitizeLine(ex.method)} `) + sent];
  if (ex.response) {
    const r = ex.response as {
      result?: unknown;
      error?: unknown;
      truncatedByChecker?: boolean;
      originalChars?: number;
      preview?: string;
    };
    // A message too large to keep whole is a preview: say so, and show it.
    const body = r.truncatedByChecker
      ? `${c.gray(`(${r.originalChars !== undefined ? formatNumber(r.originalChars) : 'many'} characters, shown in part)`)} ${sanitizeLine(clip(r.preview ?? '', width))}`
      : 'error' in r
        ? `error ${inlineJson(r.error, width)}`
        : inlineJson(r.result, width);
    lines.push(c.gray(`        ${sanitizeLine(ex.session)} ← `) + body);
  } else {
    lines.push(
      c.gray(`        ${sanitizeLine(ex.session)} ← `) +
        (ex.progress ? (s: string) => s : c.red)(sanitizeLine(clip(noAnswerText(ex), width))),
    );
  }
  return lines;
}
