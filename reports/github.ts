import { scoreSentence } from '../src/core/score-sentence.js';
import { budgetSentence, reportVerdictSentence } from '../src/core/verdict-sentence.js';
import type { CheckReport } from '../src/generated/report.js';
import { makeVisible } from '../src/util/text.js';
import { fenceOffCommands } from './ci-fence.js';
import { exchangesAsText, sequenceLines } from './exchange-text.js';
import { budgetsOf, countsLine, entries, othersLine, resultName } from './group.js';

/**
 * Workflow-command data: no line break (or % that could forge one) survives, so no text can start
 * a command; terminal escapes are shown, not performed, in the log.
 */
export function data(text: string): string {
  return makeVisible(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Workflow-command property values also may not contain : or , */
export function property(text: string): string {
  return data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * GitHub Actions annotations (::error / ::warning), with file and line where there is one. Text
 * from servers and linted files is escaped, so it cannot inject workflow commands.
 */
export function renderGithub(report: CheckReport, commandsOff?: string, verbose = false, server?: string): string {
  // In a fleet every title names its server.
  const titled = (text: string) => property(server !== undefined ? `${server}: ${text}` : text);
  const lines: string[] = [];
  const proofs: string[] = [];
  if (report.verdict)
    lines.push(
      `::notice title=${titled(`mcp-pd-check: progressive disclosure ${report.verdict.implements}`)}::${data(reportVerdictSentence(report))}`,
    );
  const budgets = budgetsOf(report);
  if (budgets) lines.push(`::notice title=${titled('mcp-pd-check: client budgets')}::${data(budgetSentence(budgets))}`);
  if (report.score) {
    const min = report.options?.minScore;
    const below = min !== undefined && report.score.server < min;
    lines.push(
      `::${below ? 'error' : 'notice'} title=${titled(`mcp-pd-check: score ${report.score.server}/100`)}::${data(scoreSentence(report.score, min))}`,
    );
  }
  for (const r of report.results) {
    for (const e of entries(
      r.findings.filter((f) => f.level !== 'info' && !f.accepted),
      verbose,
    )) {
      const f = e.finding;
      const props = [`title=${titled(`${resultName(report, r)}${f.location?.tool ? ` [${f.location.tool}]` : ''}`)}`];
      if (f.location?.file) {
        props.unshift(
          `file=${property(f.location.file)}`,
          ...(f.location.line ? [`line=${f.location.line}`, `col=${f.location.column ?? 1}`] : []),
        );
      }
      const message = e.others.length ? `${f.message} (…${othersLine(e)})` : f.message;
      const text = f.hint ? `${message} Fix: ${f.hint}` : message;
      lines.push(`::${f.level === 'error' ? 'error' : 'warning'} ${props.join(',')}::${data(text)}`);
      if (f.level === 'error' && f.transcript?.length)
        proofs.push(
          `${server !== undefined ? `${makeVisible(server)}: ` : ''}${resultName(report, r)}: ${makeVisible(f.message)}\n${[...sequenceLines(f), exchangesAsText(f.transcript.slice(-4))].map(makeVisible).join('\n')}`,
        );
    }
  }
  const s = report.summary;
  lines.push(`::notice title=${titled('mcp-pd-check')}::${data(countsLine(s, report.results))}`);
  // In an Actions log, the exchanges behind the failures follow in a folded group, fenced off.
  if (commandsOff && proofs.length) {
    lines.push(
      '::group::mcp-pd-check: the JSON-RPC exchanges behind the failures',
      fenceOffCommands(proofs.join('\n\n'), commandsOff).trimEnd(),
      '::endgroup::',
    );
  }
  return `${lines.join('\n')}\n`;
}
