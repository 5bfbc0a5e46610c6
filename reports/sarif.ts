import { readCheckDoc } from '../src/core/check-docs.js';
import { TOOL_NAME, TOOL_VERSION } from '../src/util/version.js';
import type { CheckReport, CheckResult, Finding } from '../src/generated/report.js';
import { fingerprint } from '../src/core/baseline.js';
import { erasChecked } from './group.js';

const LEVEL: Record<Finding['level'], 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
};

function rule(r: CheckResult) {
  // A plugin's check is documented by the plugin: its own URL, its title and spec (docs/plugins.md).
  // A plugin's check is documented by its plugin, unless its doc ships with the checker (the
  // default plugins': docs/checks/<plugin>/<id>.md).
  const doc = readCheckDoc(r.id);
  if (r.plugin && !doc) return pluginRule(r);
  return {
    id: r.id,
    name: ruleName(r.id),
    shortDescription: { text: r.title },
    fullDescription: { text: `${r.title} (${r.spec.doc} §${r.spec.section}, ${r.spec.level}).` },
    // A link that works for whoever reads the alert: the check's doc in the published package (the
    // full doc is in help.markdown too), never a file:// path on the machine that ran the check.
    helpUri: `https://unpkg.com/${TOOL_NAME}@${TOOL_VERSION}/docs/checks/${r.id}.md`,
    help: {
      text: `${r.title}. Spec: ${r.spec.doc} §${r.spec.section} (${r.spec.level})${r.spec.requirements?.length ? `; requirements ${r.spec.requirements.join(', ')}` : ''}.`,
      // Code scanning shows this beside each alert: the check's own doc, what it checks and how to fix it.
      ...(doc ? { markdown: doc.markdown } : {}),
    },
    defaultConfiguration: { level: LEVEL[r.severity] },
    properties: { tags: [...new Set([r.spec.doc, r.id.split(/[-/]/)[0]])] },
  };
}

/** A rule's name in PascalCase, a plugin's namespace kept apart by a dot: pd-unknown-tool → PdUnknownTool, acme/card-owner → Acme.CardOwner. */
function ruleName(id: string): string {
  return id
    .replace(/\//g, '.')
    .replace(/(^|[-.])([a-z0-9])/g, (_m, d: string, c: string) => `${d === '.' ? '.' : ''}${c.toUpperCase()}`);
}

/** The rule of a plugin's check: its namespaced id, its title, the help URI its spec gives. */
function pluginRule(r: CheckResult) {
  const url = r.spec.url ?? '';
  return {
    id: r.id,
    name: ruleName(r.id),
    shortDescription: { text: r.title },
    fullDescription: { text: `${r.title} (plugin ${r.plugin!.name} ${r.plugin!.version}, ${r.spec.level}).` },
    ...(/^https?:\/\//.test(url) ? { helpUri: url } : {}),
    help: { text: `${r.title}. Documented by the plugin ${r.plugin!.name}: ${url}` },
    defaultConfiguration: { level: LEVEL[r.severity] },
    properties: { tags: [r.plugin!.name, 'plugin'] },
  };
}

function result(
  r: CheckResult,
  ruleIndex: number,
  f: Finding,
  baselined: boolean,
  namesEra: boolean,
  artifact: string,
) {
  const loc = f.location;
  // Every result is located in a file (code scanning refuses the whole upload otherwise): a lint
  // finding in its own, a live one in the file that names the server (`artifact`), its tool as a logical location.
  const location = loc?.file
    ? {
        physicalLocation: {
          artifactLocation: { uri: fileUri(loc.file) },
          region: { startLine: loc.line ?? 1, startColumn: loc.column ?? 1 },
        },
      }
    : {
        physicalLocation: { artifactLocation: { uri: fileUri(artifact) }, region: { startLine: 1 } },
        logicalLocations: [{ name: loc?.tool ?? r.id, kind: loc?.tool ? 'function' : 'module' }],
      };
  return {
    ruleId: r.id,
    ruleIndex,
    level: LEVEL[f.level],
    message: { text: `${namesEra && r.era ? `[${r.era}] ` : ''}${f.hint ? `${f.message} Fix: ${f.hint}` : f.message}` },
    locations: [location],
    // Code scanning matches alerts across runs by this: check, code and location, never the text.
    partialFingerprints: { 'mcpPdCheck/v2': fingerprint(r.id, f, r.era) },
    ...(f.accepted !== undefined || baselined ? { baselineState: f.accepted ? 'unchanged' : 'new' } : {}),
    properties: {
      code: f.code,
      args: f.args,
      ...(loc?.pointer ? { jsonPointer: loc.pointer } : {}),
      ...(r.era ? { era: r.era } : {}),
    },
  };
}

/** A relative path as a URI reference: each segment percent-encoded (spaces, control characters…). */
function fileUri(path: string): string {
  return path
    .split(/[\\/]/)
    .map((segment) => (segment === '..' || segment === '.' ? segment : encodeURIComponent(segment)))
    .join('/');
}

/**
 * SARIF 2.1.0: a rule per check, a result per error/warning finding, each in a file: a lint
 * finding's own, a live finding's `artifact` (the config, entry point or workflow that names the
 * server; mcp-pd-check.config.json when nothing does), with its tool as a logical location.
 */
export function renderSarif(report: CheckReport, artifact = 'mcp-pd-check.config.json'): string {
  // A rule per check, once however many protocol eras ran it; a result names its era in its text.
  const ruleIds = [...new Set(report.results.map((r) => r.id))];
  const rules = ruleIds.map((id) => rule(report.results.find((r) => r.id === id)!));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: report.tool.name, version: report.tool.version, rules } },
        invocations: [{ executionSuccessful: report.summary.errors === 0, startTimeUtc: report.startedAt }],
        ...(report.score
          ? {
              properties: {
                score: report.score.server,
                scoreOfTools: report.score.tools.map((t) => ({ tool: t.tool, score: t.score })),
                toolsAt100: report.score.perfect.length,
              },
            }
          : {}),
        results: report.results.flatMap((r) =>
          r.findings
            .filter((f) => f.level !== 'info')
            .map((f) =>
              result(r, ruleIds.indexOf(r.id), f, report.baseline !== undefined, erasChecked(report) > 1, artifact),
            ),
        ),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
