// The listed level says WHAT, the full level HOW (the seeds' guide): argument formats, units and
// worked examples in a tools/list description cost every prompt and belong to the full description.
import { defineTextRule } from '../../src/plugin/index.js';
import { docOf, quote, textOf } from './texts.js';

/** What is HOW: formats, units, examples of values, allowed values. */
const HOW: Array<[RegExp, string]> = [
  [/\b(YYYY-MM-DD|ISO[- ]?8601|RFC ?\d{3,4}|epoch (milli)?seconds)\b/i, 'an argument format'],
  [/\b(e\.g\.|for example|for instance)/i, 'an example'],
  [/\bmust be (a|an|one of|between|at (most|least))\b/i, 'a constraint on an argument'],
  [/\b(regex|regular expression|glob pattern)\b/i, 'a pattern an argument must match'],
  [/\bone of\s*[:(["'`]/i, 'the values an argument takes'],
];

export default defineTextRule({
  id: 'listed-how',
  reads: ['listed'],
  title: 'A listed description says what the tool does, not how to call it',
  spec: { url: docOf('listed-how'), level: 'SHOULD' },
  messages: {
    'how-in-listing': {
      message:
        'Tool \'{tool}\' is listed with {what} ("{span}"): that is how to call it, which belongs to its full description.',
      hint: 'Keep the listed description to what the tool does and to what; give formats, units and examples in the full description, beside the parameters.',
    },
  },
  check(texts, report) {
    for (const tool of texts.tools) {
      const text = textOf(tool.listed?.description);
      for (const [pattern, what] of HOW) {
        const m = pattern.exec(text);
        if (!m) continue;
        report(
          'how-in-listing',
          { what, span: quote(text, m.index, m[0].length) },
          { level: 'listed', tool: tool.name, pointer: '/description' },
        );
        break;
      }
    }
  },
});
