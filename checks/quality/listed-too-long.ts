// The listed level is carried in every prompt: each description stays within what a model reads at
// a glance. The bound is in tokens, estimated as a quarter of the characters (the run's tokenizer is
// not part of the plugin API); it is an option of the rule.
import { defineTextRule } from '../../src/plugin/index.js';
import { docOf, textOf } from './texts.js';

/** The default bound, in tokens (about two sentences). */
const MAX_TOKENS = 60;

export default defineTextRule({
  id: 'listed-too-long',
  reads: ['listed'],
  title: `A listed description is within ${MAX_TOKENS} tokens (an option: maxTokens)`,
  spec: { url: docOf('listed-too-long'), level: 'SHOULD' },
  defaults: { maxTokens: MAX_TOKENS },
  messages: {
    'too-long': {
      message:
        "Tool '{tool}' is listed with about {tokens} tokens; the listed level carries at most {max} (every prompt pays for it).",
      hint: 'Keep what tells the model which tool to choose (what it does, to what); move the rest to its full description.',
    },
  },
  check(texts, report, options) {
    const max = typeof options.maxTokens === 'number' ? options.maxTokens : MAX_TOKENS;
    for (const tool of texts.tools) {
      const tokens = Math.ceil(textOf(tool.listed?.description).length / 4);
      if (tokens > max)
        report('too-long', { tokens, max }, { level: 'listed', tool: tool.name, pointer: '/description' });
    }
  },
});
