import { defineCheck } from '../src/check.js';
import type { LiveContext } from '../src/context.js';
import { describeSchemaErrors } from '../src/lint/schema-messages.js';
import { requireDashdashOrSkip } from '../src/pd/dashdash.js';
import { isPlainObject } from '../src/pd/payload.js';
import { shippedValidator } from '../src/shipped-schemas.js';
import { asText } from '../src/text.js';

export default defineCheck<LiveContext>({
  id: 'dashdash-server-metadata',
  title: 'The initialize result carries a valid dashdash object (identity, access level, alternative access)',
  spec: {
    doc: 'dashdash', section: '3.1', level: 'MUST',
    requirements: ['DD-3.1.1-a', 'DD-3.1.2-a', 'DD-3.1.2-b', 'DD-3.1.2-c', 'DD-3.1.2-d', 'DD-3.1.2-f', 'DD-3.1.2-g', 'DD-3.1.2-h', 'DD-3.1.2-i', 'DD-3.1.2-j', 'DD-3.1.2-k', 'DD-3.1.2-l', 'DD-3.1.2-m', 'DD-3.1.2-n'],
  },
  needs: 'session',
  async run(ctx) {
    requireDashdashOrSkip(ctx);
    const init = ctx.discovery.initializeResult;
    const dd = init.dashdash;
    const transcript = ctx.target.sessionsStarted().find((s) => s.label === 'probe')?.exchanges.slice(0, 1) ?? [];
    if (!isPlainObject(dd)) {
      ctx.warn('The server has dashdash metadata elsewhere but none in the initialize result (§3.1.1 SHOULD).', {
        transcript, hint: 'Add "dashdash": { specVersion, identity, accessLevel, alternativeAccess } to the initialize result.',
      });
      return;
    }
    const validate = shippedValidator('dashdash-server');
    if (!validate(dd)) {
      for (const p of describeSchemaErrors(validate.errors, dd, '/dashdash')) {
        ctx.fail(`initialize: ${p.message}.`, { location: { pointer: `/dashdash${p.pointer}` }, transcript, hint: 'See schemas/dashdash-server.schema.json (dashdash v0.2.0 §3.1.2).' });
      }
    }
    const m = typeof dd.specVersion === 'string' ? /^(\d+)\.(\d+)\./.exec(dd.specVersion) : null;
    if (m && Number(m[1]) === 0 && Number(m[2]) < 2) {
      ctx.fail(`dashdash specVersion ${asText(dd.specVersion)} is older than 0.2.0 (§3.1.2).`, { transcript, hint: 'Implement dashdash 0.2.0 and say "specVersion": "0.2.0".' });
    }
    for (const field of ['install', 'requires', 'rateLimit', 'homepage'] as const) {
      if (!(field in dd)) ctx.warn(`dashdash has no '${field}' (RECOMMENDED, §3.1.2).`, { hint: `Add "${field}" to the dashdash object.` });
    }
  },
});
