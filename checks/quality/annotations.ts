// Clients decide on approval by a tool's annotations, and our own harmless-call rules rest on them:
// readOnlyHint given explicitly, and destructiveHint on every tool that is not read-only (MCP's
// defaults read "may change" and "may destroy"; destructiveHint means nothing on a read-only tool),
// and never contradicted by the tool's own words (a tool that "deletes" marked read-only).
import { defineTextRule } from '../../src/plugin/index.js';
import { docOf, objectOf, quote, textOf } from './texts.js';

/**
 * Words of a tool that changes data: a verb whose subject is the tool — "Deletes a note", "lists
 * notes and deletes old ones", "it overwrites", an imperative "Delete the note" — never a noun
 * ("progress updates", "update times").
 */
const WRITES =
  /(?:^|[.!?:;,]\s+|\b(?:and|it|then|also|that|which|or|tool)\s+)(deletes|removes|drops|destroys|erases|overwrites|writes|updates|creates|modifies|sends|moves|renames|purges)\b|(?:^|[.!?:;]\s+)(delete|remove|drop|destroy|erase|overwrite|write|update|create|modify|send|move|rename|purge)\s+(?:the|a|an|all|any|every|one|each|this|that|its|their)\b/i;
/** Words of a tool that changes nothing. */
const READS_ONLY =
  /\b(read-only|changes nothing|modifies nothing|(does not|never) (change|modify|write|alter)s? (anything|any data|data)|without (changing|modifying) anything)\b/i;
/** A negation just before a match ("does not delete", "never writes"): no claim of writing. */
const NEGATED = /\b(not|never|no|without|cannot|can't|nothing)\W+(\w+\W+){0,2}$/i;

export default defineTextRule({
  id: 'annotations',
  reads: ['listed'],
  title: 'Every tool says whether it is read-only and, if not, whether it destroys; its words agree',
  spec: { url: docOf('annotations'), level: 'SHOULD' },
  messages: {
    'hint-implicit': {
      message:
        "Tool '{tool}' does not give {hint}: MCP's default applies ({default}), and clients ask for approval on it.",
      hint: 'Give the hints explicitly in the annotations: { "readOnlyHint": true } for a tool that changes nothing, else { "readOnlyHint": false, "destructiveHint": … }.',
    },
    'says-it-writes': {
      message: 'Tool \'{tool}\' is marked readOnlyHint: true, but its description says it changes data: "{span}".',
      hint: 'Fix whichever is wrong: the annotation (readOnlyHint: false) or the description.',
    },
    'says-it-reads': {
      message:
        'Tool \'{tool}\' is marked destructiveHint: true, but its description says it changes nothing: "{span}".',
      hint: 'Fix whichever is wrong: the annotation (destructiveHint: false, or readOnlyHint: true) or the description.',
    },
  },
  check(texts, report) {
    for (const tool of texts.tools) {
      if (!tool.listed) continue;
      const annotations = objectOf(tool.listed.annotations) ?? {};
      const at = { level: 'listed' as const, tool: tool.name, pointer: '/annotations' };
      if (typeof annotations.readOnlyHint !== 'boolean')
        report('hint-implicit', { hint: 'readOnlyHint', default: 'false' }, at);
      if (annotations.readOnlyHint !== true && typeof annotations.destructiveHint !== 'boolean')
        report('hint-implicit', { hint: 'destructiveHint', default: 'true' }, at);
      const text = `${textOf(tool.listed.description)} ${textOf(tool.full?.description)}`;
      const writes = WRITES.exec(text);
      if (annotations.readOnlyHint === true && writes && !NEGATED.test(text.slice(0, writes.index)))
        report('says-it-writes', { span: quote(text, writes.index, writes[0].length) }, at);
      const reads = READS_ONLY.exec(text);
      if (annotations.destructiveHint === true && reads)
        report('says-it-reads', { span: quote(text, reads.index, reads[0].length) }, at);
    }
  },
});
