import { parseTree, findNodeAtLocation, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { MAX_DEPTH } from '../target/limits.js';
import { asText } from '../text.js';

export interface Position {
  line: number;
  column: number;
}

export interface SyntaxProblem extends Position {
  message: string;
}

export interface DuplicateKey extends Position {
  key: string;
  pointer: string;
  first: Position;
}

/**
 * A JSON file as text, value and syntax tree, so that every finding can point at a line and
 * column. The value comes from JSON.parse (own properties only: a `__proto__` key stays data).
 */
export class JsonSource {
  readonly bom: boolean;
  readonly value: unknown;
  readonly parsed: boolean;
  readonly syntaxErrors: SyntaxProblem[] = [];
  readonly duplicateKeys: DuplicateKey[] = [];
  private readonly tree: Node | undefined;
  private readonly lineStarts: number[] = [0];

  constructor(rawText: string) {
    this.bom = rawText.charCodeAt(0) === 0xfeff;
    const text = this.bom ? rawText.slice(1) : rawText;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    const errors: ParseError[] = [];
    // The parsers below recurse per level: a deeper file would overflow the stack, so it stops here.
    const tooDeep = deepestOffset(text, MAX_DEPTH);
    if (tooDeep !== undefined) {
      this.syntaxErrors.push({ message: `the JSON is nested deeper than ${MAX_DEPTH} levels; such a file is not read further`, ...this.position(tooDeep) });
      this.value = undefined;
      this.parsed = false;
      return;
    }
    this.tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    for (const e of errors) {
      this.syntaxErrors.push({ message: describeParseError(printParseErrorCode(e.error), text, e.offset), ...this.position(e.offset) });
    }
    if (!text.trim() && !this.syntaxErrors.length) this.syntaxErrors.push({ message: 'the file is empty', line: 1, column: 1 });
    let value: unknown;
    let parsed = false;
    if (!this.syntaxErrors.length) {
      try {
        value = JSON.parse(text);
        parsed = true;
      } catch (err) {
        this.syntaxErrors.push({ message: (err as Error).message, line: 1, column: 1 });
      }
      if (this.tree) this.findDuplicates(this.tree, '');
    }
    this.value = value;
    this.parsed = parsed;
  }

  /** Line and column (1-based) of a JSON pointer; the nearest existing ancestor if it is missing. */
  locate(pointer: string): Position {
    if (!this.tree) return { line: 1, column: 1 };
    const path = pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    for (let n = path.length; n >= 0; n--) {
      const segments = path.slice(0, n).map((s, i) => (this.isArrayAt(path.slice(0, i)) && /^\d+$/.test(s) ? Number(s) : s));
      const node = findNodeAtLocation(this.tree, segments);
      if (node) {
        // For a property, point at its key, which is where an editor shows the problem.
        const at = node.parent?.type === 'property' ? node.parent.offset : node.offset;
        return this.position(at);
      }
    }
    return { line: 1, column: 1 };
  }

  private isArrayAt(path: string[]): boolean {
    const node = path.length ? findNodeAtLocation(this.tree!, path.map((s) => (/^\d+$/.test(s) ? Number(s) : s))) : this.tree;
    return node?.type === 'array';
  }

  private position(offset: number): Position {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.lineStarts[lo]! + 1 };
  }

  private findDuplicates(node: Node, pointer: string): void {
    if (node.type === 'object') {
      const seen = new Map<string, Position>();
      for (const prop of node.children ?? []) {
        const keyNode = prop.children?.[0];
        const valueNode = prop.children?.[1];
        if (!keyNode) continue;
        const key = asText(keyNode.value);
        const here = this.position(keyNode.offset);
        const childPointer = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        const first = seen.get(key);
        if (first) this.duplicateKeys.push({ key, pointer: childPointer, first, ...here });
        else seen.set(key, here);
        if (valueNode) this.findDuplicates(valueNode, childPointer);
      }
    } else if (node.type === 'array') {
      (node.children ?? []).forEach((child, i) => this.findDuplicates(child, `${pointer}/${i}`));
    }
  }
}

const PARSE_ERRORS: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'a property name (in double quotes) was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: "a ':' was expected",
  CommaExpected: "a ',' was expected",
  CloseBraceExpected: "a closing '}' was expected",
  CloseBracketExpected: "a closing ']' was expected",
  EndOfFileExpected: 'the JSON value ends here, but more text follows',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in a string (control characters must be escaped)',
};

function describeParseError(code: string, text: string, offset: number): string {
  const near = text.slice(offset, offset + 12).split('\n')[0];
  const base = PARSE_ERRORS[code] ?? code;
  return near ? `${base} (at ${JSON.stringify(near)})` : `${base} (at the end of the file)`;
}

/** Where nesting first goes deeper than `max` ([ and { outside strings), or undefined. Linear. */
function deepestOffset(text: string, max: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return undefined;
}
