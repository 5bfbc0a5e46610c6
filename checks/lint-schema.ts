import { defineCheck } from '../src/check.js';
import type { LintContext } from '../src/lint/context.js';
import type { LintFile } from '../src/lint/files.js';
import { describeSchemaErrors } from '../src/lint/schema-messages.js';
import { isPlainObject } from '../src/pd/payload.js';
import { shippedValidator, type ShippedSchema } from '../src/shipped-schemas.js';

const TOOL_CARD_SOURCE = 'mizcausevic-dev/mcp-tool-card-spec@88e136c';

/** Fields the upstream vectors use where Tool Cards v0.1 has another name. */
const CARD_ALIASES: Record<string, string> = { model: 'llm', log_locations: 'log_uri', passed: 'pass_rate' };

/** Which shipped schema a file (or part of it) is validated against, and where that part is. */
function targets(file: LintFile): Array<{ schema: ShippedSchema; pointer: string; value: unknown }> {
  const v = file.source!.value as Record<string, unknown>;
  switch (file.kind) {
    case 'tool-description': return [{ schema: 'tool-description', pointer: '', value: v }];
    case 'tool-card': return [{ schema: 'tool-card', pointer: '', value: v }];
    case 'dashdash-server': return [{ schema: 'dashdash-server', pointer: '', value: v }];
    case 'initialize-result': return [{ schema: 'dashdash-server', pointer: '/dashdash', value: v.dashdash }];
    case 'tools-list':
      return (v.tools as unknown[]).flatMap((t, i) => (isPlainObject(t) && 'dashdash' in t ? [{ schema: 'dashdash-tool' as const, pointer: `/tools/${i}/dashdash`, value: t.dashdash }] : []));
    default: return [];
  }
}

export default defineCheck<LintContext>({
  id: 'lint-schema',
  title: 'Each file is valid against its shipped JSON Schema (tool description, Tool Card, dashdash)',
  spec: {
    doc: 'mcp-pd-check', section: 'lint', level: 'MUST',
    requirements: ['PD-3.2-b', 'TC-tool_card_version', 'TC-tool', 'TC-schema', 'TC-safety', 'TC-safety.side_effect_class', 'TC-safety.pii_exposure', 'TC-safety.secrets_exposure', 'TC-tested_with', 'TC-tested_with[].pass_rate', 'TC-tested_with[].tested_at', 'TC-performance', 'TC-audit', 'DD-3.1.2-a', 'DD-3.1.2-b', 'DD-3.1.2-c', 'DD-3.1.2-d', 'DD-3.1.2-f', 'DD-3.1.2-g', 'DD-3.1.2-h', 'DD-3.2.2-b'],
  },
  needs: 'folder',
  async run(ctx) {
    for (const file of ctx.files.filter((f) => f.source?.parsed)) {
      for (const { schema, pointer, value } of targets(file)) {
        const validate = shippedValidator(schema);
        if (!validate(value)) {
          for (const problem of describeSchemaErrors(validate.errors, value, pointer)) {
            const where = ctx.at(file, pointer + problem.pointer);
            if (problem.unknownField) {
              ctx.warn(`${problem.message}: not defined by ${schemaTitle(schema)}; it is ignored.`, {
                location: where,
                hint: schema !== 'tool-card' ? 'Remove it or fix its spelling.'
                  : CARD_ALIASES[problem.unknownField] ? `Tool Cards v0.1 calls this '${CARD_ALIASES[problem.unknownField]}'.`
                  : `Remove it: neither the Tool Cards v0.1 text nor ${TOOL_CARD_SOURCE} defines it, so readers ignore it.`,
              });
            } else {
              ctx.fail(`${problem.message} (${schemaTitle(schema)}).`, { location: where, hint: `See schemas/${schema}.schema.json for what is expected.` });
            }
          }
        }
        if (schema === 'tool-card' && isPlainObject(value) && !('audit' in value)) {
          ctx.warn(`No 'audit' block: optional in the Tool Cards v0.1 text (followed here), but required by the published schema ${TOOL_CARD_SOURCE}.`, {
            location: ctx.at(file, pointer), hint: 'Add "audit": { "log_uri": …, "retention_days": … } so that both readings accept the card.',
          });
        }
        if (schema === 'dashdash-server' && isPlainObject(value) && typeof value.specVersion === 'string') checkSpecVersion(ctx, file, pointer, value.specVersion);
      }
    }
  },
});

function schemaTitle(schema: ShippedSchema): string {
  return {
    'tool-description': 'a progressive-disclosure tool description',
    'tool-card': 'MCP Tool Cards v0.1',
    'dashdash-server': 'dashdash v0.2.0 server metadata',
    'dashdash-tool': 'dashdash v0.2.0 tool metadata',
    'dashdash-resource': 'dashdash v0.2.0 resource metadata',
    report: 'the report schema',
    config: 'the config schema',
    baseline: 'the baseline schema',
  }[schema];
}

function checkSpecVersion(ctx: LintContext, file: LintFile, pointer: string, version: string): void {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!m) return; // the schema already reported the format
  const [major, minor] = [Number(m[1]), Number(m[2])];
  const where = ctx.at(file, `${pointer}/specVersion`);
  if (major === 0 && minor < 2) {
    ctx.fail(`dashdash specVersion ${version} is older than 0.2.0, which this metadata must be at least (§3.1.2).`, { location: where, hint: 'Update the metadata to dashdash 0.2.0 and set "specVersion": "0.2.0".' });
  } else if (major > 0) {
    ctx.info(`dashdash specVersion ${version} is newer than the 0.2.0 this checker knows; checked as 0.2.0.`, { location: where });
  }
}
