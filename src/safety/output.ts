import type { CheckReport } from '../generated/report.js';
import { breakCiCommands } from '../util/text.js';
import { deepMapStrings, type Redactor } from './redact.js';

/**
 * The one output-safety rule, applied to a whole report before any reporter sees it: known
 * secrets and recognisable credentials masked, CI log commands broken, in every string of every
 * format (reporters then escape for their own syntax).
 */
export function safeReport(report: CheckReport, redactor: Redactor): CheckReport {
  return deepMapStrings(report, (s) => breakCiCommands(redactor.text(s)));
}

/** The same rule for a line the CLI writes itself (errors, progress, summaries). */
export function safeLine(text: string, redactor: Redactor): string {
  return breakCiCommands(redactor.text(text));
}
