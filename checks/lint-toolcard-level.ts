import { defineCheck } from '../src/check.js';
import type { ToolCard } from '../src/generated/tool-card.js';
import type { LintContext } from '../src/lint/context.js';
import { shippedValidator } from '../src/shipped-schemas.js';
import { cardLevel } from '../src/toolcards.js';
import { asText } from '../src/text.js';

const DAY_MS = 86_400_000;

export default defineCheck<LintContext>({
  id: 'lint-toolcard-level',
  title: 'Tool Cards: conformance level (L1 schema, L2 safety, L3 trial) and the destructive ⇒ approval rule',
  spec: {
    doc: 'tool-cards', section: '6', level: 'MUST',
    requirements: ['TC-level.L1', 'TC-level.L2', 'TC-level.L3', 'TC-safety.destructive-approval', 'TC-performance'],
  },
  needs: 'folder',
  async run(ctx) {
    const validate = shippedValidator('tool-card');
    for (const file of ctx.ofKind('tool-card')) {
      const card = file.source!.value as ToolCard;
      // Unknown fields are only warnings (lint-schema), so they do not cost a card its level.
      const valid = validate(card) || (validate.errors ?? []).every((e) => e.keyword === 'additionalProperties');
      const now = ctx.options.now.getTime();
      const { level, why: reason } = cardLevel(card, valid, ctx.options.now);
      const why = level === 'none' ? `${reason} (see lint-schema)` : reason;
      ctx.info(`Tool Card '${asText(card.tool?.name ?? file.display)}': conformance level ${why}.`, { location: ctx.at(file), data: { level } });

      if (card.safety?.side_effect_class === 'destructive' && card.safety.human_approval_required !== true) {
        ctx.fail("side_effect_class is 'destructive' but human_approval_required is not true; a destructive tool must require human approval.", {
          location: ctx.at(file, '/safety/human_approval_required'), hint: 'Set "human_approval_required": true (or reclassify the tool if it is not destructive).',
        });
      }
      const perf = card.performance;
      if (perf && typeof perf.p50_latency_ms === 'number' && typeof perf.p99_latency_ms === 'number' && perf.p50_latency_ms > perf.p99_latency_ms) {
        ctx.warn(`performance.p50_latency_ms (${perf.p50_latency_ms}) is above p99_latency_ms (${perf.p99_latency_ms}); a median cannot exceed the 99th percentile.`, {
          location: ctx.at(file, '/performance'), hint: 'Check whether the two values were swapped.',
        });
      }
      // The card may be schema-invalid here (lint-schema says so): read it defensively.
      (Array.isArray(card.tested_with) ? card.tested_with : []).forEach((t, i) => {
        const at = Date.parse(asText(t?.tested_at));
        if (Number.isFinite(at) && at > now + DAY_MS) {
          ctx.warn(`tested_with[${i}].tested_at (${t.tested_at}) lies in the future.`, { location: ctx.at(file, `/tested_with/${i}/tested_at`), hint: 'Record when the test actually ran.' });
        }
      });
    }
  },
});
