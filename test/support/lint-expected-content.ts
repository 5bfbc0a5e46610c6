// The findings each fixtures/folders/ situation of what files say must give: tool descriptions,
// secrets, Tool Card levels and consistency, what init leaves for review, saved tools/list files.
// test/lint-fixtures.test.ts lints them.
import type { Expected } from './lint-shipped.js';

export const CONTENT_EXPECTED: Record<string, Expected[]> = {
  'tool-descriptions': [
    [
      'lint-tool-descriptions',
      'error',
      'tool_descriptions/broken.json:4',
      'input-schema-invalid',
      /not a valid JSON Schema \(2020-12\).*minimum must be number/,
    ],
    ['lint-tool-descriptions', 'error', 'tool_descriptions/broken.json:5', 'input-schema-not-object', /type "array"/],
    [
      'lint-tool-descriptions',
      'error',
      'tool_descriptions/broken.json:7',
      'required-not-in-properties',
      /requires 'cursor'/,
    ],
    ['lint-tool-descriptions', 'warning', 'tool_descriptions/broken.json:1', 'no-error-guidance'],
    [
      'lint-tool-descriptions',
      'error',
      'tool_descriptions/copy.json:2',
      'name-mismatch',
      /named 'good', but it is the description of 'copy' \(its file is copy.json\)/,
    ],
    [
      'lint-tool-descriptions',
      'warning',
      'tool_descriptions/has space.json:2',
      'name-invalid',
      /'has space' contains a space/,
    ],
    [
      'lint-tool-descriptions',
      'error',
      'tool_descriptions/has space.json:5',
      'example-invalid',
      /Example 1 does not match the inputSchema: \/n: Instance type "string" is invalid. Expected "integer"/,
    ],
    [
      'lint-tool-descriptions',
      'error',
      'tool_descriptions/good.json:2',
      'duplicate-in-folder',
      /in one folder are named 'good'/,
    ],
    // MCP-input-c: no parameters, yet any object accepted; MCP-input-b: a draft-07 tuple read as 2020-12.
    [
      'lint-tool-descriptions',
      'warning',
      'tool_descriptions/ping.json:4',
      'input-schema-no-properties',
      /"additionalProperties":false/,
    ],
    [
      'lint-tool-descriptions',
      'error',
      'tool_descriptions/range.json:4',
      'input-schema-invalid',
      /schema is invalid: \/properties\/bounds\/items must be object,boolean\.$/,
    ], // once, not once per branch ajv tried
    [
      'lint-tool-descriptions',
      'warning',
      'tool_descriptions/range.json:6',
      'draft07-construct',
      /"items" is an array: a tuple is "prefixItems" there/,
    ],
  ],
  secrets: [
    [
      'lint-no-secrets',
      'warning',
      'tool_descriptions/leaky.json:3',
      'credential',
      /an AWS access key id \(AKIA…GH \(20 characters\)\)/,
    ],
    ['lint-no-secrets', 'warning', 'tool_descriptions/leaky.json:3', 'disclosure', /an absolute file path/],
    ['lint-no-secrets', 'warning', 'tool_descriptions/leaky.json:3', 'disclosure', /an internal host name/],
    ['lint-no-secrets', 'warning', 'tool_descriptions/leaky.json:5', 'credential', /a private key/],
  ],
  'toolcard-levels': [
    [
      'lint-toolcard-level',
      'warning',
      'mcp-tools/level_three.json:12',
      'p50-above-p99',
      /\(900\) is above p99_latency_ms \(300\)/,
    ],
    ['lint-toolcard-level', 'error', 'mcp-tools/wipe.json:11', 'destructive-without-approval'],
  ],
  'toolcard-consistency': [
    [
      'lint-toolcard-consistency',
      'error',
      'mcp-tools/get_note.json:4',
      'input-schema-drift',
      /get_note.json's inputSchema at '\/properties\/id\/type'/,
    ],
    [
      'lint-toolcard-consistency',
      'error',
      'mcp-tools/wrong_name.json:3',
      'card-name-mismatch',
      /describes 'right_name', but it is the card of 'wrong_name'/,
    ],
  ],
  // What `mcp-pd-check init` leaves for a human, and the checker's own config, validated as one.
  'needs-review': [
    [
      'lint-needs-review',
      'warning',
      'tool_descriptions/get_note.json:12',
      'needs-review',
      /"REVIEW: generated from the inputSchema .*" \(\/examples\/0\/description\)/,
    ],
    [
      'lint-needs-review',
      'warning',
      'tool_descriptions/get_note.json:18',
      'needs-review',
      /\(\/usage_guidance\/important_notes\/0\)/,
    ],
    [
      'lint-needs-review',
      'warning',
      'mcp-pd-check.config.json:5',
      'needs-review',
      /the command that starts your server.*\(\/command\/1\)/,
    ],
    [
      'lint-schema',
      'error',
      'bad-config/mcp-pd-check.config.json:3',
      'out-of-range',
      /'sessions' must be >= 2; found the number 1 \(the config schema\)/,
    ],
    [
      'lint-schema',
      'error',
      'bad-config/mcp-pd-check.config.json:4',
      'wrong-value',
      /'failOn' must be one of "error", "warning", "never"/,
    ],
  ],
  'tools-list': [
    ['lint-tools-list', 'warning', 'saved.json:5', 'name-duplicate', /'search' is listed twice/],
    ['lint-tools-list', 'warning', 'saved.json:6', 'name-invalid', /'send mail' contains a space/],
    ['lint-tools-list', 'error', 'saved.json:7', 'no-input-schema', /'no_schema'/],
    ['lint-tools-list', 'error', 'saved.json:8', 'input-schema-not-object', /'wrong_type'/],
    ['lint-tools-list', 'error', 'saved.json:9', 'tool-without-name', /entry 5/],
    // The selection rule: "Searches." and "Sends mail." say nothing the names do not.
    ['lint-tools-list', 'warning', 'saved.json:5', 'restates-name', /'search'/],
    ['lint-tools-list', 'warning', 'saved.json:6', 'restates-name', /'send mail'/],
  ],
};
