import type { CheckReport } from '../src/generated/report.js';

/** The report as JSON, valid against schemas/report.schema.json. */
export function renderJson(report: CheckReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
