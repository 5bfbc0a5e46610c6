import {
  parse,
  parseTree,
  findNodeAtLocation,
  printParseErrorCode,
  visit,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import { escapeSegment, pointerSegments } from '../util/json-pointer.js';
import { MAX_DEPTH } from '../transport/limits.js';

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
  private readonly text: string;
  /** The syntax tree, built only when a location is asked for (most files of a lint have none). */
  private treeCache: Node | undefined | null = null;
  private lineStartsCache: number[] | undefined;

  /**
   * `comments`: read as JSONC (comments and trailing commas), as the checker reads its own config file
   * (src/cli/config-file.ts): the lint and the run read one file one way.
   */
  constructor(
    rawText: string,
    private readonly options: { comments?: boolean } = {},
  ) {
    this.bom = rawText.charCodeAt(0) === 0xfeff;
    const text = this.bom ? rawText.slice(1) : rawText;
    this.text = text;
    // The parsers below recurse per level: a deeper file would overflow the stack, so it stops here.
    const tooDeep = deepestOffset(text, MAX_DEPTH);
    if (tooDeep !== undefined) {
      this.syntaxErrors.push({
        message: `the JSON is nested deeper than ${MAX_DEPTH} levels; such a file is not read further`,
        ...this.position(tooDeep),
      });
      this.value = undefined;
      this.parsed = false;
      return;
    }
    let value: unknown;
    let parsed = false;
    try {
      value = JSON.parse(text);
      parsed = true;
    } catch {
      // JSONC where the file is read so; only a broken file needs the full parser, for where and what the first
      // error is.
      const errors: ParseError[] = [];
      if (options.comments) {
        const jsonc = parse(text, errors, this.parseOptions) as unknown;
        if (!errors.length && text.trim()) {
          value = jsonc;
          parsed = true;
        }
      }
    }
    if (!parsed) {
      const errors: ParseError[] = [];
      this.treeCache = parseTree(text, errors, this.parseOptions);
      for (const e of errors) {
        this.syntaxErrors.push({
          message: describeParseError(printParseErrorCode(e.error), text, e.offset),
          ...this.position(e.offset),
        });
      }
      if (!text.trim() && !this.syntaxErrors.length)
        this.syntaxErrors.push({ message: 'the file is empty', line: 1, column: 1 });
      if (!this.syntaxErrors.length) this.syntaxErrors.push({ message: 'not valid JSON', line: 1, column: 1 });
    }
    if (parsed) this.findDuplicates();
    this.value = value;
    this.parsed = parsed;
  }

  private get tree(): Node | undefined {
    if (this.treeCache === null) this.treeCache = parseTree(this.text, [], this.parseOptions);
    return this.treeCache;
  }

  private get parseOptions() {
    const comments = this.options.comments === true;
    return { disallowComments: !comments, allowTrailingComma: comments, allowEmptyContent: false };
  }

  private get lineStarts(): number[] {
    if (!this.lineStartsCache) {
      const starts = [0];
      for (let i = 0; i < this.text.length; i++) if (this.text.charCodeAt(i) === 10) starts.push(i + 1);
      this.lineStartsCache = starts;
    }
    return this.lineStartsCache;
  }

  /** Line and column (1-based) of a JSON pointer; the nearest existing ancestor if it is missing. */
  locate(pointer: string): Position {
    if (!this.tree) return { line: 1, column: 1 };
    const path = pointerSegments(pointer);
    for (let n = path.length; n >= 0; n--) {
      const segments = path
        .slice(0, n)
        .map((s, i) => (this.isArrayAt(path.slice(0, i)) && /^\d+$/.test(s) ? Number(s) : s));
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
    const node = path.length
      ? findNodeAtLocation(
          this.tree!,
          path.map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
        )
      : this.tree;
    return node?.type === 'array';
  }

  private position(offset: number): Position {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.lineStarts[lo] + 1 };
  }

  /** Keys that appear twice in one object (JSON.parse keeps one silently): one pass, no tree. */
  private findDuplicates(): void {
    const frames: Array<{ seen: Map<string, Position>; pointer: string; index: number; array: boolean }> = [];
    let pendingKey: string | undefined;
    const childPointer = () => {
      const top = frames[frames.length - 1];
      if (!top) return '';
      return top.array ? `${top.pointer}/${top.index++}` : `${top.pointer}/${escapeSegment(pendingKey ?? '')}`;
    };
    visit(
      this.text,
      {
        onObjectBegin: () => {
          frames.push({ seen: new Map(), pointer: childPointer(), index: 0, array: false });
        },
        onObjectEnd: () => {
          frames.pop();
        },
        onArrayBegin: () => {
          frames.push({ seen: new Map(), pointer: childPointer(), index: 0, array: true });
        },
        onArrayEnd: () => {
          frames.pop();
        },
        onObjectProperty: (key, offset) => {
          pendingKey = key;
          const top = frames[frames.length - 1];
          const here = this.position(offset);
          const first = top.seen.get(key);
          if (first) this.duplicateKeys.push({ key, pointer: `${top.pointer}/${escapeSegment(key)}`, first, ...here });
          else top.seen.set(key, here);
        },
        onLiteralValue: () => {
          childPointer();
        },
      },
      this.parseOptions,
    );
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
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
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
