import { defineCheck } from '../src/check.js';
import type { LintContext } from '../src/lint/context.js';

export default defineCheck<LintContext>({
  id: 'lint-json-syntax',
  title: 'Every file is well-formed JSON: no syntax errors, no duplicate keys, no byte-order mark',
  spec: { doc: 'mcp-pd-check', section: 'lint', level: 'MUST', requirements: ['PD-7.1-a'] },
  needs: 'folder',
  async run(ctx) {
    for (const file of ctx.files) {
      if (file.readProblem) {
        const report = file.readLevel === 'warning' ? ctx.warn.bind(ctx) : ctx.fail.bind(ctx);
        report(`${file.display} ${file.readProblem}.`, {
          location: { file: file.display },
          hint: file.readLevel === 'warning' ? 'Lint the folder the link points to as well (it is then followed), or remove the link.' : 'Lint only JSON text files.',
        });
        continue;
      }
      const source = file.source!;
      // Only the first syntax error: the ones after it are usually its echoes.
      for (const e of source.syntaxErrors.slice(0, 1)) {
        ctx.fail(`Not valid JSON: ${e.message}.`, {
          location: { file: file.display, line: e.line, column: e.column },
          hint: 'Fix the syntax; JSON allows no comments, no trailing commas and only double-quoted strings.',
        });
      }
      for (const d of source.duplicateKeys) {
        ctx.fail(`The key '${d.key}' appears twice in the same object (first at line ${d.first.line}); parsers silently keep only one of them.`, {
          location: { file: file.display, line: d.line, column: d.column, pointer: d.pointer }, hint: 'Remove or rename one of the two keys.',
        });
      }
      if (source.bom) {
        ctx.warn('The file starts with a byte-order mark; JSON text must not (RFC 8259 §8.1), and some parsers reject it.', {
          location: { file: file.display, line: 1, column: 1 }, hint: 'Save the file as UTF-8 without BOM.',
        });
      }
    }
  },
});
