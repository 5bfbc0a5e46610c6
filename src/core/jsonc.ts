// JSON with comments and trailing commas (the files users write by hand: MCP client configs, our
// settings file), and errors that say where: line and column, in words.
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { InputError } from './input-error.js';

const WORDS: Record<string, string> = {
  InvalidSymbol: 'an unexpected character',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'a property name was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: 'a colon was expected',
  CommaExpected: 'a comma was expected',
  CloseBraceExpected: "a closing '}' was expected",
  CloseBracketExpected: "a closing ']' was expected",
  EndOfFileExpected: 'nothing more was expected',
  InvalidCommentToken: 'a malformed comment',
  UnexpectedEndOfComment: 'a comment that never ends',
  UnexpectedEndOfString: 'a string that never ends',
  UnexpectedEndOfNumber: 'a number that ends too soon',
  InvalidUnicode: 'a malformed \\u escape',
  InvalidEscapeCharacter: 'a malformed escape',
  InvalidCharacter: 'a character not allowed in a string',
};

/** Line and column (1-based) of an offset in a text. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** Parses JSONC; throws InputError `<what>: line L, column C: <what was wrong>`, for the first error. */
export function parseJsonc(text: string, what: string): unknown {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  const first = errors[0];
  if (first) {
    const { line, column } = lineColumn(text, first.offset);
    const code = printParseErrorCode(first.error);
    throw new InputError(`${what} is not valid JSON: line ${line}, column ${column}: ${WORDS[code] ?? code}`);
  }
  return value;
}

/** What a value is, in words, for "holds X, not Y". */
export function describeValue(value: unknown): string {
  return value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : value === undefined
        ? 'nothing'
        : `a ${typeof value}`;
}
