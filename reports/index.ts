import type { CheckReport } from '../src/generated/report.js';
import { renderGithub } from './github.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { renderSarif } from './sarif.js';
import { renderText } from './text.js';

export interface RenderOptions {
  color: boolean;
  /** Every finding on its own (by default one code found on many tools is one entry). */
  verbose?: boolean;
  /**
   * Set (to a random token) when the output goes to a GitHub Actions log: the text and github
   * reporters fence untrusted text with ::stop-commands::<token> … ::<token>::.
   */
  commandsOff?: string;
  /** The repository file a live run's findings are located at in SARIF (src/cli/sarif-artifact.ts). */
  artifact?: string;
  /** How to run this checker in the shell the run came from (src/cli/invocation.ts), for the commands printed. */
  command?: string;
  /** The folder a printed `init --out` names (a fleet gives each server its own). */
  initOut?: string;
}

export type Reporter = (report: CheckReport, options: RenderOptions) => string;

/** Every output format, by the name used on the command line. */
export const REPORTERS: Record<string, Reporter> = {
  text: (report, options) => renderText(report, options),
  json: (report) => renderJson(report),
  junit: (report) => renderJunit(report),
  sarif: (report, options) => renderSarif(report, options.artifact),
  github: (report, options) => renderGithub(report, options.commandsOff, options.verbose),
  markdown: (report, options) => renderMarkdown(report, options.verbose),
  html: (report, options) => renderHtml(report, options.verbose),
};

export { FORMAT_NAMES } from './formats.js';
