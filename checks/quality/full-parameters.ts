// Every parameter of a full description says what it is (the seeds' guide: the full level teaches
// the model how to call the tool), and a parameter that takes one of a few values says what each
// means: a bare enum leaves the model guessing between them.
import { defineTextRule } from '../../src/plugin/index.js';
import { docOf, parametersOf, textOf, wordsOf } from './texts.js';

export default defineTextRule({
  id: 'full-parameters',
  reads: ['full'],
  title: "Every parameter is described, and an enum's values are explained",
  spec: { url: docOf('full-parameters'), level: 'SHOULD' },
  messages: {
    'parameter-undescribed': {
      message:
        "Tool '{tool}': parameters without a description: {parameters} (a model fills them from their names alone).",
      hint: 'Describe every parameter in its inputSchema: what it is, its unit or format, and what happens without it.',
    },
    'enum-unexplained': {
      message:
        "Tool '{tool}': its parameter '{parameter}' takes one of {values}, and its description explains none of them.",
      hint: 'Say in the parameter\'s description what each value does (e.g. "asc: oldest first; desc: newest first").',
    },
  },
  check(texts, report) {
    for (const tool of texts.tools) {
      // One finding a tool, naming every parameter it leaves undescribed: a catalogue of thousands says
      // it once per tool, at the first of them.
      const undescribed: Array<{ name: string; pointer: string }> = [];
      for (const p of parametersOf(tool.full)) {
        const description = textOf(p.schema.description).trim();
        if (!description) {
          undescribed.push(p);
          continue;
        }
        const at = { level: 'full' as const, tool: tool.name, pointer: p.pointer };
        const values = Array.isArray(p.schema.enum)
          ? p.schema.enum.filter((v): v is string => typeof v === 'string')
          : [];
        const said = new Set(wordsOf(description));
        if (values.length > 1 && !values.some((v) => wordsOf(v).every((w) => said.has(w))))
          report('enum-unexplained', { parameter: p.name, values: values.slice(0, 6) }, at);
      }
      if (undescribed.length)
        report(
          'parameter-undescribed',
          { parameters: undescribed.map((p) => p.name) },
          { level: 'full', tool: tool.name, pointer: undescribed[0].pointer },
        );
    }
  },
});
