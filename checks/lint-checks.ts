import type { LintCheck } from '../src/lint/check.js';
import lintJsonSyntax from './lint-json-syntax.js';
import lintFileKind from './lint-file-kind.js';
import lintSchema from './lint-schema.js';
import lintToolDescriptions from './lint-tool-descriptions.js';
import lintToolcardLevel from './lint-toolcard-level.js';
import lintToolcardConsistency from './lint-toolcard-consistency.js';
import lintToolsList from './lint-tools-list.js';
import lintNoSecrets from './lint-no-secrets.js';
import lintNeedsReview from './lint-needs-review.js';

/** Every offline lint check, in report order. */
export const LINT_CHECKS: readonly LintCheck[] = [
  lintJsonSyntax,
  lintFileKind,
  lintSchema,
  lintToolDescriptions,
  lintToolcardLevel,
  lintToolcardConsistency,
  lintToolsList,
  lintNoSecrets,
  lintNeedsReview,
];
