import { FindingSink } from '../core/findings.js';
import type { FindingLevel, FindingLocation } from '../generated/report.js';
import type { FileKind, LintFile } from './files.js';
import type { Messages } from '../core/messages.js';
import type { RuleProblem } from '../core/findings.js';

export interface LintOptions {
  /** "Now" for date rules (Tool Card L3: tested within 90 days); fixed in tests. */
  now: Date;
}

/** What a lint check sees: every file read (parsed or not), and where things are in them. */
export class LintContext<C extends string = string> extends FindingSink<C> {
  constructor(
    readonly files: readonly LintFile[],
    readonly options: LintOptions,
    messages: Messages,
    failLevel: FindingLevel,
  ) {
    super(messages, failLevel);
  }

  /** A rule's problems about a value found at `base` in a file, located by file:line:col. */
  problems(file: LintFile, problems: RuleProblem[], base = ''): void {
    for (const p of problems) this.problem(p, { location: this.at(file, base + p.pointer) });
  }

  /** Parsed files of a kind. */
  ofKind(kind: FileKind): LintFile[] {
    return this.files.filter((f) => f.kind === kind && f.source?.parsed);
  }

  /**
   * Parsed files of a kind; with none, the check is skipped, saying so (a check with nothing to read passes nothing).
   */
  ofKindOrSkip(kind: FileKind, what: string): LintFile[] {
    const files = this.ofKind(kind);
    if (!files.length) this.skip('nothing-to-lint', { what });
    return files;
  }

  /**
   * The files that parsed; with none, the check is skipped, saying so: a check that could read none of
   * its input passes nothing (lint-json-syntax says why each file did not parse).
   */
  parsedOrSkip(): LintFile[] {
    const files = this.files.filter((f) => f.source?.parsed);
    if (!files.length) this.skip('nothing-to-lint', { what: 'file that parses as JSON (lint-json-syntax says why)' });
    return files;
  }

  /** A finding location: file, line, column and JSON pointer. */
  at(file: LintFile, pointer = ''): FindingLocation {
    const pos = file.source?.locate(pointer) ?? { line: 1, column: 1 };
    return { file: file.display, line: pos.line, column: pos.column, pointer };
  }
}
