// The findings each fixtures/folders/ situation of file syntax, file kinds and schemas must give
// (json-syntax, dashdash-forms, unknown-kind, schema-errors). test/lint-fixtures.test.ts lints them.
import type { Expected } from './lint-shipped.js';

export const SYNTAX_SCHEMA_EXPECTED: Record<string, Expected[]> = {
  'json-syntax': [
    ['lint-json-syntax', 'warning', 'bom.json:1', 'byte-order-mark'],
    [
      'lint-json-syntax',
      'error',
      'duplicate-key.json:3',
      'duplicate-key',
      /key 'tools' appears twice .*first at line 2/,
    ],
    [
      'lint-json-syntax',
      'error',
      'trailing-comma.json:4',
      'syntax-error',
      /Not valid JSON: a property name .* was expected/,
    ],
  ],
  // Every form dashdash metadata is saved in is recognised and validated: { "dashdash": … }, and a
  // bare object in a file named dashdash*.json (even without identity, which it must have).
  'dashdash-forms': [
    [
      'lint-schema',
      'error',
      'wrapped.json:5',
      'wrong-value',
      /'dashdash.accessLevel' must be one of "read", "interact", "full"; found the string "admin"/,
    ],
    ['lint-schema', 'error', 'dashdash.json:1', 'missing-field', /required field 'identity'/],
    // DD-3.1.2-e: says what, not when.
    ['lint-schema', 'error', 'dashdash-no-trigger.json:3', 'no-trigger-phrases', /no trigger phrase/],
  ],
  'unknown-kind': [
    ['lint-file-kind', 'warning', 'mystery.json:1', 'unknown-kind', /Cannot tell what .*mystery.json is/],
  ],
  'schema-errors': [
    ['lint-schema', 'error', 'card.json:2', 'wrong-value', /'tool_card_version' must be "0.1"; found the number 0.1/],
    [
      'lint-schema',
      'error',
      'card.json:6',
      'bad-pattern',
      /'tool.version' must be a semantic version such as 1.4.0; found the string "1.0"/,
    ],
    [
      'lint-schema',
      'error',
      'card.json:7',
      'bad-format',
      /'tool.mcp_server_uri' must be a valid uri; found the string "not a uri"/,
    ],
    [
      'lint-schema',
      'error',
      'card.json:20',
      'out-of-range',
      /'tested_with\[0\].pass_rate' must be <= 1; found the number 98/,
    ],
    [
      'lint-schema',
      'error',
      'card.json:20',
      'bad-format',
      /'tested_with\[0\].tested_at' must be a valid date-time; found the string "yesterday"/,
    ],
    // One Tool Card field of each kind in the wrong shape (TC-tool.description, TC-schema.input_schema_uri,
    // TC-safety.*).
    [
      'lint-schema',
      'error',
      'card-safety.json:8',
      'wrong-type',
      /'tool.description' must be a string; found an object/,
    ],
    [
      'lint-schema',
      'error',
      'card-safety.json:10',
      'bad-format',
      /'schema.input_schema_uri' must be a valid uri; found the string "schemas\/delete note.json"/,
    ],
    [
      'lint-schema',
      'error',
      'card-safety.json:13',
      'wrong-type',
      /'safety.reversible' must be a boolean; found the string "no"/,
    ],
    [
      'lint-schema',
      'error',
      'card-safety.json:14',
      'wrong-type',
      /'safety.rate_limited' must be a boolean; found the number 1/,
    ],
    [
      'lint-schema',
      'error',
      'card-safety.json:17',
      'wrong-type',
      /'safety.human_approval_required' must be a boolean; found the string "yes"/,
    ],
    [
      'lint-schema',
      'error',
      'card-safety.json:18',
      'wrong-type',
      /'safety.refusal_modes' must be an array; found the string/,
    ],
    [
      'lint-schema',
      'error',
      'card-safety.json:19',
      'wrong-type',
      /'safety.external_systems\[0\]' must be a string; found an object/,
    ],
    ['lint-toolcard-level', 'error', 'card-safety.json:17', 'destructive-without-approval'],
    [
      'lint-schema',
      'error',
      'initialize.json:7',
      'bad-pattern',
      /'dashdash.identity.name' must be lowercase letters, digits and hyphens/,
    ],
    [
      'lint-schema',
      'error',
      'initialize.json:8',
      'wrong-value',
      /'dashdash.accessLevel' must be one of "read", "interact", "full"; found the string "admin"/,
    ],
    [
      'lint-schema',
      'error',
      'initialize.json:9',
      'missing-field',
      /required field 'dashdash.alternativeAccess.webUrl'/,
    ],
    ['lint-schema', 'error', 'initialize.json:6', 'spec-version-too-old', /specVersion 0.1.0 is older than 0.2.0/],
    ['lint-schema', 'warning', 'initialize.json:5', 'recommended-field-missing', /no 'install'/],
    ['lint-schema', 'warning', 'initialize.json:5', 'recommended-field-missing', /no 'requires'/],
    ['lint-schema', 'warning', 'initialize.json:5', 'recommended-field-missing', /no 'rateLimit'/],
    ['lint-schema', 'warning', 'initialize.json:5', 'recommended-field-missing', /no 'homepage'/],
    ['lint-schema', 'warning', 'tool_descriptions/shapeless.json:7', 'unknown-field', /field 'summary'/],
    [
      'lint-schema',
      'error',
      'tool_descriptions/shapeless.json:3',
      'wrong-type',
      /'description' must be a string; found the number 42/,
    ],
    [
      'lint-schema',
      'error',
      'tool_descriptions/shapeless.json:5',
      'missing-field',
      /required field 'examples\[0\].input'/,
    ],
  ],
};
