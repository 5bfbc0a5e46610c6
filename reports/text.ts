import { cutShort } from '../src/core/findings.js';
import { Chalk, type ChalkInstance } from 'chalk';
import type { CheckReport, CheckResult, ReportTarget } from '../src/generated/report.js';
import { clip, formatNumber, listing, plural, sanitizeLine, asText, shellWord } from '../src/util/text.js';
import {
  acrossEras,
  entries,
  erasChecked,
  resultName,
  resultNames,
  shownStatus,
  targetLine,
  type ShownStatus,
} from './group.js';
import { fenceOffCommands } from './ci-fence.js';
import { renderEntry } from './text-findings.js';
import { renderVerdict } from './text-verdict.js';
import { renderScore } from './text-score.js';

export interface TextOptions {
  color: boolean;
  /** Every finding on its own line (by default one code on many tools is one entry). */
  verbose?: boolean;
  /** A GitHub Actions log: the whole report is fenced off from the runner's command parser. */
  commandsOff?: string;
  /** Width to clip JSON lines of transcripts to. */
  width?: number;
  /** How to run this checker, for the commands printed (else its name). */
  command?: string;
  /** The folder a printed `init --out` names (else pd). */
  initOut?: string;
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
  out.push(...renderScore(report, c, options.verbose === true));
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
        const last = r.findings[r.findings.length - 1];
        // Rules with nothing of their level to read say so together (each says what it lacked with --verbose).
        const reason =
          last?.code === 'nothing-to-read'
            ? 'Nothing to check: the run read none of the texts these rules judge.'
            : (last?.message ?? '');
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
      // What the lines leave out, and how to see it: each part counted where it is said.
      const inVerdict = results.filter((x) => saidInVerdict.has(x.id));
      const namedChecks = new Set(inVerdict.map((x) => x.id)).size;
      const unspoken = results.filter((x) => !saidInVerdict.has(x.id) && ofUncheckedEra(x)).length;
      const shown = results.length - inVerdict.length - unspoken;
      const verdictPart = inVerdict.length
        ? `${inVerdict.length}${inVerdict.length > namedChecks ? ` (${plural(namedChecks, 'check')}, in each era)` : ''} in the verdict above`
        : '';
      const unspokenPart = unspoken ? `${unspoken} of an era the server does not speak (the server line says it)` : '';
      const notes = [
        ...(byReason.size < shown
          ? [`checks with the same reason on one line (${plural(byReason.size, 'line')})`]
          : []),
        ...(verdictPart ? [`${verdictPart} (not testable without the resource)`] : []),
        ...(unspokenPart ? [unspokenPart] : []),
        ...(clipped ? ['reasons cut at …'] : []),
      ];
      // A count the lines do not add up to is said, with how to see the rest; a first contact, which
      // keeps to one screen, says it in the heading.
      if (notes.length && !firstContact) out.push(c.gray(`  (${notes.join('; ')}: --verbose shows each in full)`));
      else if (notes.length)
        out[heading] =
          `${out[heading]}${c.gray(` — ${[`${shown} on ${plural(byReason.size, 'line')}`, verdictPart, unspokenPart].filter(Boolean).join(', ')}; --verbose shows each`)}`;
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
    // A first contact keeps to progressive disclosure: plugins' warnings are counted, the score sums them up; two
    // or more share one line.
    const findingCount = (r: CheckResult) => plural(r.findings.filter((f) => f.level !== 'info').length, 'finding');
    const pluginWarnings = firstContact && group.status === 'warn' ? results.filter((r) => r.plugin !== undefined) : [];
    if (pluginWarnings.length > 1)
      out.push(
        `  ${paint(group.mark)} ${pluginWarnings.map((r) => `${c.bold(resultName(report, r))} ${c.gray(`(${findingCount(r)})`)}`).join(', ')}${c.gray(' — --verbose shows them')}`,
      );
    // A check that passed in every era checked is one line.
    for (const r of group.status === 'pass' ? acrossEras(report, results) : results) {
      if (notRun.length > 1 && notRun.includes(r)) continue;
      if (pluginWarnings.length > 1 && pluginWarnings.includes(r)) continue;
      const crit = r.spec.criterion ? ` #${r.spec.criterion}` : '';
      const folded = pluginWarnings.includes(r);
      const count = folded ? c.gray(` — ${findingCount(r)}; --verbose shows them`) : '';
      out.push(
        `  ${paint(group.mark)} ${c.bold(resultName(report, r))}${c.gray(crit)}  ${r.title}  ${c.gray(`§${r.spec.section} ${r.spec.level}, ${r.durationMs} ms`)}${count}`,
      );
      if (folded) continue;
      // What proves it, in one line (the exchanges are in the JSON report).
      if (options.verbose && r.proof)
        out.push(`      ${c.cyan('proven by:')} ${sanitizeLine(clip(r.proof.message, width * 2))}`);
      const shown = new Set<string>();
      // Info lines of a live run (token counts, forms seen) are for --verbose: the verdict sums them up.
      const showInfo = options.verbose || t.kind === 'files';
      // Those of one kind in a lint's files (a count per tool, a level per card) fold as warnings do.
      const infos = showInfo
        ? entries(
            r.findings.filter((f) => f.level === 'info'),
            options.verbose,
            { files: true },
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
  const cut = report.results.filter(cutShort).length;
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
  if (report.verdict?.implements === 'no' && t.command)
    out.push(
      ...nextSteps(report, t.command, t.launch, c, options.command ?? report.tool.name, options.initOut ?? 'pd'),
    );
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

function r0IsPass(status: ShownStatus): boolean {
  return status === 'pass';
}

/** After a "no": the exact command that leads to a "yes" (and the one that serves its result). */
function nextSteps(
  report: CheckReport,
  command: string,
  launch: ReportTarget['launch'],
  c: ChalkInstance,
  self: string,
  folder: string,
): string[] {
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
    `${c.bold('Next:')} write tool_descriptions/, a minimal tools/list, Tool Card stubs, a config and a CI workflow into ${folder}/, then put them in front of this server, unchanged, with '${self} serve --descriptions ${folder} ${cwd}-- ${server}':`,
    `  ${self} init --out ${folder} ${started}-- ${server}`,
    ...(variables.length
      ? [
          c.gray(
            `  (${variables.join(', ')} ${variables.length === 1 ? 'is' : 'are'} read from the environment: export ${variables.map((v) => `${v}=…`).join(' ')} first; ${variables.length === 1 ? 'the value is' : 'their values are'} never printed)`,
          ),
        ]
      : []),
  ];
}
