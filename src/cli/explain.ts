import { Chalk } from 'chalk';
import type { CheckDefinition } from '../core/check.js';
import { checkSeverity } from '../core/check.js';
import { checkDocUrl, DOC_SECTIONS, readCheckDoc } from '../core/check-docs.js';
import { UsageError } from './usage-error.js';
import { unknownCheck } from '../core/unknown-check.js';
import { hintOf, templateOf } from '../core/messages.js';
import { SHARED_MESSAGES } from '../core/findings.js';
import { CONTEXT_MESSAGES } from '../run/context.js';
import { CLIENT_REACH_NOTE, CLIENTS } from '../core/client-reach.js';

type AnyCheck = Pick<CheckDefinition<unknown>, 'id' | 'title' | 'spec' | 'needs' | 'messages' | 'plugin' | 'severity'>;

const NEEDS: Record<AnyCheck['needs'], string> = {
  session: 'one live session (stdio or --url)',
  sessions: 'many parallel live sessions (--sessions)',
  http: 'a Streamable HTTP target (--url)',
  folder: 'files given to lint',
};

const OUTCOME = { error: 'a failure fails the run', warning: 'a failure is a warning', info: 'informational only' };

/**
 * `explain reach`: the shipped table of clients (whether their model reads resources), its sources, and how to update
 * it.
 */
export function explainReach(json: boolean): string {
  if (json) return `${JSON.stringify({ clients: CLIENTS, note: CLIENT_REACH_NOTE }, null, 2)}\n`;
  const width = Math.max(...CLIENTS.map((c) => c.client.length));
  const rows = CLIENTS.map(
    (c) =>
      `  ${c.client.padEnd(width)}  ${c.readsResources ? 'reads resources' : 'tools only     '}  ${c.how} (${c.source}, ${c.date})`,
  );
  return [
    'Which clients let the model read a resource on its own. Progressive disclosure reaches the others only through',
    'the tool form of the resource (a tool marked in its _meta, such as get_tool_descriptions): see pd-descriptions-tool.',
    '',
    ...rows,
    '',
    CLIENT_REACH_NOTE,
    '',
  ].join('\n');
}

/** The check called `id`; an unknown id is a usage error that names the closest ones. */
export function findCheck<T extends AnyCheck>(all: readonly T[], id: string): T {
  const found = all.find((c) => c.id === id);
  if (found) return found;
  throw new UsageError(
    unknownCheck(
      id,
      all.map((c) => c.id),
    ),
  );
}

/** What `explain <id>` prints: the check's metadata (from its definition), then its doc. */
export function explainText(check: AnyCheck, color: boolean): string {
  const c = new Chalk({ level: color ? 1 : 0 });
  const severity = checkSeverity(check);
  const spec =
    `${check.spec.doc} §${check.spec.section}, ${check.spec.level} (${OUTCOME[severity]})` +
    (check.spec.criterion !== undefined ? `, criterion ${check.spec.criterion} of 9` : '');
  const lines = [
    c.bold(check.id),
    `  ${check.title}`,
    '',
    `  spec:          ${spec}`,
    ...(check.spec.requirements.length
      ? [
          `  requirements:  ${check.spec.requirements.join(', ')} (the ids of the spec's normative statements this check proves)`,
        ]
      : []),
    `  needs:         ${NEEDS[check.needs]}`,
    ...(check.plugin ? [`  plugin:        ${check.plugin.name} ${check.plugin.version}`] : []),
    `  doc:           ${docUrlOf(check)}`,
  ];
  // A plugin's check is documented by the plugin (its spec.url; its codes say what each finding means and how to
  // fix it), unless its doc ships with the checker (the default plugins': docs/checks/<plugin>/<id>.md).
  const doc = readCheckDoc(check.id);
  if (!doc && !check.plugin) {
    lines.push('', '  (no documentation was found for this check in this installation)');
  } else if (doc) {
    for (const heading of DOC_SECTIONS) {
      const body = doc.sections.get(heading);
      if (body === undefined) continue;
      lines.push('', c.bold.underline(heading), ...body.split('\n').map((l) => (l ? `  ${l}` : '')));
    }
  }
  lines.push(
    '',
    c.bold.underline('Finding codes'),
    "  Stable forever: baselines, SARIF and scripts use them, never the text. {name} is filled from the finding's args.",
  );
  const width = Math.max(...Object.keys(check.messages).map((code) => code.length));
  for (const [code, spec] of Object.entries(check.messages)) {
    lines.push(`  ${c.bold(code.padEnd(width))}  ${templateOf(spec)}`);
    const hint = check.plugin ? hintOf(spec) : undefined;
    if (hint) lines.push(`  ${' '.repeat(width)}  fix: ${hint}`);
  }
  lines.push(
    `  Any check may also report: ${Object.keys(SHARED_MESSAGES).join(', ')}${check.needs === 'folder' ? '' : `; live checks: ${Object.keys(CONTEXT_MESSAGES).join(', ')}`}.`,
  );
  return `${lines.join('\n')}\n`;
}

/** Where a check is documented: ours (and the default plugins') in the package's docs/checks, a plugin's where its spec says. */
function docUrlOf(check: AnyCheck): string {
  return check.plugin && check.spec.url && !readCheckDoc(check.id) ? check.spec.url : checkDocUrl(check.id);
}

/** The same, as data: for editors and scripts. */
export function explainJson(check: AnyCheck): string {
  const doc = readCheckDoc(check.id);
  const { requirements, ...spec } = check.spec;
  return `${JSON.stringify(
    {
      id: check.id,
      title: check.title,
      spec,
      requirements,
      severity: checkSeverity(check),
      needs: check.needs,
      docUrl: docUrlOf(check),
      ...(check.plugin ? { plugin: { name: check.plugin.name, version: check.plugin.version } } : {}),
      doc: Object.fromEntries(doc?.sections ?? []),
      codes: Object.fromEntries(
        Object.entries(check.messages).map(([code, spec]) => [code, { message: templateOf(spec), hint: hintOf(spec) }]),
      ),
    },
    null,
    2,
  )}\n`;
}
