// The listed level says WHAT, the full level HOW (the seeds' guide): argument formats, units and
// worked examples in a tools/list description cost every prompt and belong to the full description.
// The patterns are the plugin API's HOW_PATTERNS: the same that init leaves out of what it writes.
import { defineTextRule, HOW_PATTERNS } from '../../src/plugin/index.js';
import { docOf, quote, textOf } from './texts.js';

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
      for (const [pattern, what] of HOW_PATTERNS) {
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
