import { defineLintCheck } from '../src/lint/check.js';
import type { ReadProblem } from '../src/lint/paths.js';

const messages = {
  'not-regular-file': {
    message: '{file} is {kind}, not a regular file; it was not opened.',
    hint: 'Lint only JSON text files; remove it from the folder or the paths given.',
  },
  'link-outside': {
    message:
      '{file} is a symlink that was not followed: it points outside the linted folder (nothing of its target was read).',
    hint: 'Lint the folder the link points to as well (it is then followed), or replace the link by the file.',
  },
  'link-loop': {
    message: '{file} is a symlink loop; it was not followed.',
    hint: 'Remove the link, or point it at a file or folder that does not lead back to itself.',
  },
  'link-dangling': {
    message: '{file} is a symlink to nothing (its target does not exist).',
    hint: 'Remove the link or restore its target.',
  },
  'folder-unreadable': {
    message: '{file} is a folder that cannot be read ({reason}).',
    hint: 'Check its permissions.',
  },
  'too-large': {
    message: '{file} is larger than {limit}; it was not parsed.',
    hint: 'No tool description comes near this size: check that this is the right file.',
  },
  unreadable: { message: '{file} cannot be read ({reason}).', hint: 'Check that the file exists and is readable.' },
  binary: { message: '{file} is a binary file, not JSON text.', hint: 'Lint only JSON text files.' },
  'syntax-error': {
    message: 'Not valid JSON: {problem}.',
    hint: 'Fix the syntax; JSON allows no comments, no trailing commas and only double-quoted strings.',
  },
  'duplicate-key': {
    message:
      "The key '{key}' appears twice in the same object (first at line {firstLine}); parsers silently keep only one of them.",
    hint: 'Remove or rename one of the two keys.',
  },
  'byte-order-mark': {
    message: 'The file starts with a byte-order mark; JSON text must not (RFC 8259 §8.1), and some parsers reject it.',
    hint: 'Save the file as UTF-8 without BOM.',
  },
} as const;

/** Links left alone only warn: the lint chose not to read them. Everything else it could not read fails. */
const WARN_ONLY = new Set<ReadProblem['code']>(['link-outside', 'link-loop', 'link-dangling']);

export default defineLintCheck({
  id: 'lint-json-syntax',
  title: 'Every file is well-formed JSON: no syntax errors, no duplicate keys, no byte-order mark',
  spec: { doc: 'mcp-pd-check', section: 'lint', level: 'MUST', requirements: ['PD-7.1-a'] },
  needs: 'folder',
  messages,
  async run(ctx) {
    for (const file of ctx.files) {
      if (file.readProblem) {
        const { code, args } = file.readProblem;
        const report = WARN_ONLY.has(code) ? ctx.warn.bind(ctx) : ctx.fail.bind(ctx);
        report(code, { file: file.display, ...args }, { location: { file: file.display } });
        continue;
      }
      const source = file.source!;
      // Only the first syntax error: the ones after it are usually its echoes.
      for (const e of source.syntaxErrors.slice(0, 1)) {
        ctx.fail(
          'syntax-error',
          { problem: e.message },
          { location: { file: file.display, line: e.line, column: e.column } },
        );
      }
      for (const d of source.duplicateKeys) {
        ctx.fail(
          'duplicate-key',
          { key: d.key, firstLine: d.first.line },
          { location: { file: file.display, line: d.line, column: d.column, pointer: d.pointer } },
        );
      }
      if (source.bom) ctx.warn('byte-order-mark', {}, { location: { file: file.display, line: 1, column: 1 } });
    }
  },
});
