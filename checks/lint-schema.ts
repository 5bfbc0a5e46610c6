import { defineLintCheck } from '../src/lint/check.js';
import type { RuleProblem } from '../src/core/findings.js';
import type { LintFile } from '../src/lint/files.js';
import { isPlainObject } from '../src/protocol/payload.js';
import { DASHDASH_MESSAGES, dashdashServerProblems, dashdashToolProblems } from '../src/rules/dashdash.js';
import { schemaProblems, SCHEMA_MESSAGES } from '../src/rules/schema-problems.js';
import { TOOL_CARD_MESSAGES, toolCardShape } from '../src/rules/tool-card.js';
import { toolDescriptionShape } from '../src/rules/tool-description.js';

const messages = {
  ...SCHEMA_MESSAGES,
  ...DASHDASH_MESSAGES,
  'no-audit': TOOL_CARD_MESSAGES['no-audit'],
} as const;

/** The parameter names of a schema. */
function parametersOf(schema: unknown): string[] | undefined {
  return isPlainObject(schema) && isPlainObject(schema.properties) ? Object.keys(schema.properties) : undefined;
}

/** What the shipped schemas (and the dashdash rules) say about each part of a file, and where the part is. */
function problemsOf(file: LintFile): Array<{ base: string; problems: RuleProblem[] }> {
  const v = file.source!.value as Record<string, unknown>;
  switch (file.kind) {
    case 'tool-description':
      return [{ base: '', problems: toolDescriptionShape(v) }];
    case 'tool-card':
      return [{ base: '', problems: toolCardShape(v) }];
    case 'checker-config':
      return [{ base: '', problems: schemaProblems('config', v) }];
    case 'tool-lock':
      return [{ base: '', problems: schemaProblems('lock', v) }];
    case 'dashdash-server':
      return [{ base: '', problems: dashdashServerProblems(v) }];
    case 'initialize-result':
    case 'dashdash-wrapped':
      // An initialize result need not carry dashdash; when it does, it must be valid.
      return 'dashdash' in v ? [{ base: '/dashdash', problems: dashdashServerProblems(v.dashdash, '/dashdash') }] : [];
    case 'tools-list': {
      const tools = v.tools as unknown[];
      const toolNames = tools.flatMap((t) => (isPlainObject(t) && typeof t.name === 'string' ? [t.name] : []));
      return tools.flatMap((t, i) =>
        isPlainObject(t) && 'dashdash' in t
          ? [
              {
                base: `/tools/${i}/dashdash`,
                problems: dashdashToolProblems(t.dashdash, {
                  toolNames,
                  parameters: parametersOf(t.inputSchema),
                  base: `/tools/${i}/dashdash`,
                }),
              },
            ]
          : [],
      );
    }
    default:
      return [];
  }
}

export default defineLintCheck({
  id: 'lint-schema',
  title:
    'Each file is valid against its shipped JSON Schema (tool description, Tool Card, dashdash, checker config, lock file)',
  spec: {
    doc: 'mcp-pd-check',
    section: 'lint',
    level: 'MUST',
    requirements: [
      'PD-3.2-b',
      'TC-tool_card_version',
      'TC-tool',
      'TC-schema',
      'TC-tool.version',
      'TC-tool.mcp_server_uri',
      'TC-tool.description',
      'TC-schema.input_schema_uri',
      'TC-safety',
      'TC-safety.side_effect_class',
      'TC-safety.{reversible,rate_limited,human_approval_required}',
      'TC-safety.refusal_modes',
      'TC-safety.external_systems',
      'TC-safety.pii_exposure',
      'TC-safety.secrets_exposure',
      'TC-tested_with',
      'TC-tested_with[].pass_rate',
      'TC-tested_with[].tested_at',
      'TC-performance',
      'TC-audit',
      'DD-3.1.2-a',
      'DD-3.1.2-b',
      'DD-3.1.2-c',
      'DD-3.1.2-d',
      'DD-3.1.2-e',
      'DD-3.1.2-f',
      'DD-3.1.2-g',
      'DD-3.1.2-h',
      'DD-3.2.2-b',
    ],
  },
  needs: 'folder',
  messages,
  async run(ctx) {
    // The same rules as the live checks of served descriptions, cards and dashdash objects.
    for (const file of ctx.parsedOrSkip()) {
      for (const { base, problems } of problemsOf(file)) ctx.problems(file, problems, base);
    }
  },
});
