import { FindingSink } from '../findings.js';
import type { FindingLevel, FindingLocation } from '../generated/report.js';
import type { FileKind, LintFile } from './files.js';

export interface LintOptions {
  /** "Now" for date rules (Tool Card L3: tested within 90 days); fixed in tests. */
  now: Date;
}

/** What a lint check sees: every file read (parsed or not), and where things are in them. */
export class LintContext extends FindingSink {
  constructor(readonly files: readonly LintFile[], readonly options: LintOptions, failLevel: FindingLevel) {
    super(failLevel);
  }

  /** Parsed files of a kind. */
  ofKind(kind: FileKind): LintFile[] {
    return this.files.filter((f) => f.kind === kind && f.source?.parsed);
  }

  /** A finding location: file, line, column and JSON pointer. */
  at(file: LintFile, pointer = ''): FindingLocation {
    const pos = file.source?.locate(pointer) ?? { line: 1, column: 1 };
    return { file: file.display, line: pos.line, column: pos.column, pointer };
  }
}
