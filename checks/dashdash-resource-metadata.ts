import { defineCheck } from '../src/check.js';
import type { LiveContext } from '../src/context.js';
import { describeSchemaErrors } from '../src/lint/schema-messages.js';
import { requireDashdashOrSkip } from '../src/pd/dashdash.js';
import { shippedValidator } from '../src/shipped-schemas.js';
import { asText } from '../src/text.js';

export default defineCheck<LiveContext>({
  id: 'dashdash-resource-metadata',
  title: "Each resource's dashdash object is valid (resourceType, refreshable, cacheDuration…)",
  spec: { doc: 'dashdash', section: '3.4', level: 'MUST', requirements: ['DD-3.4.1-a', 'DD-3.4.2-a', 'DD-3.4.2-b', 'DD-3.4.2-c'] },
  needs: 'session',
  async run(ctx) {
    requireDashdashOrSkip(ctx);
    const { resources, resourcesExchanges: transcript } = ctx.discovery;
    if (!resources.length) ctx.skip('The server lists no resources.');
    const validate = shippedValidator('dashdash-resource');
    for (const [i, r] of resources.entries()) {
      const uri = asText(r.uri);
      if (!('dashdash' in r)) {
        ctx.warn(`Resource '${uri}' has no dashdash object (§3.4.1 SHOULD).`, { hint: 'Add "dashdash": { resourceType, refreshable, cacheDuration }.' });
        continue;
      }
      if (!validate(r.dashdash)) {
        for (const p of describeSchemaErrors(validate.errors, r.dashdash)) {
          ctx.fail(`Resource '${uri}': dashdash ${p.message}.`, { location: { pointer: `/resources/${i}/dashdash${p.pointer}` }, transcript, hint: 'See schemas/dashdash-resource.schema.json.' });
        }
      }
    }
  },
});
