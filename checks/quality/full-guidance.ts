// A full description tells the model when to use the tool, what it returns, and what its errors
// mean and how to recover (the seeds' "Best Practices" and the full description's usage_guidance and
// error_guidance): without them the model calls at random and gives up at the first error. A full
// description without error_guidance at all is pd-full-descriptions' and lint-tool-descriptions'
// finding (no-error-guidance, §3.2); this rule asks that each error it names says how to recover.
import { defineTextRule } from '../../src/plugin/index.js';
import { docOf, objectOf, textOf } from './texts.js';

/** Words that say when to use a tool (or when not to). */
const WHEN =
  /\b(use (it|this|this tool)?\s*(when|to|for|before|after|instead)|call (it|this) (when|to|before|after|first)|when you (need|want)|if you need|instead of|do not use|don't use|only when|before (calling|using)|after (calling|using))\b/i;
/** Words that say what a tool gives back. */
const RETURNS = /\b(returns?|gives|lists|responds|outputs?|results?|yields|reports?|answers)\b/i;

export default defineTextRule({
  id: 'full-guidance',
  reads: ['full'],
  title: 'A full description says when to use the tool, what it returns, and what its errors mean',
  spec: { url: docOf('full-guidance'), level: 'SHOULD' },
  messages: {
    'no-when': {
      message:
        'Tool \'{tool}\': its full description does not say when to use it (no usage_guidance, no "use it when…").',
      hint: 'Add usage_guidance (common_patterns, important_notes) or a sentence on when the tool is the right one, and when it is not.',
    },
    'no-returns': {
      message:
        'Tool \'{tool}\': its full description does not say what the tool returns (no outputSchema, no "returns…").',
      hint: 'Say what a call gives back (its fields, or an outputSchema), so the model knows what it will have.',
    },
    'error-without-solution': {
      message:
        "Tool '{tool}': its error_guidance names the error '{error}' without a solution: the model meets it and does not know how to recover.",
      hint: 'Give each of error_guidance.common_errors its cause and its solution (e.g. "NOT_FOUND: the id is unknown; list the ids first").',
    },
  },
  check(texts, report) {
    for (const tool of texts.tools) {
      const full = tool.full;
      if (!full) continue;
      const at = { level: 'full' as const, tool: tool.name, pointer: '' };
      const description = textOf(full.description);
      const guidance = objectOf(full.usage_guidance);
      const guided = guidance && Object.values(guidance).some((v) => (Array.isArray(v) ? v.length > 0 : Boolean(v)));
      if (!guided && !WHEN.test(description)) report('no-when', {}, at);
      if (full.outputSchema === undefined && !RETURNS.test(description)) report('no-returns', {}, at);
      const errors = objectOf(full.error_guidance)?.common_errors;
      (Array.isArray(errors) ? errors : []).forEach((entry, i) => {
        const error = objectOf(entry);
        if (error && !textOf(error.solution).trim())
          report(
            'error-without-solution',
            { error: textOf(error.error) || `#${i + 1}` },
            {
              ...at,
              pointer: `/error_guidance/common_errors/${i}`,
            },
          );
      });
    }
  },
});
