import { defineLiveCheck } from '../src/run/check.js';
import { DASHDASH_PRESENCE_MESSAGES, requireDashdashOrSkip } from '../src/run/dashdash-presence.js';
import { dashdashResourceProblems } from '../src/rules/dashdash.js';
import { SCHEMA_MESSAGES } from '../src/rules/schema-problems.js';
import { asText } from '../src/util/text.js';

const messages = {
  ...DASHDASH_PRESENCE_MESSAGES,
  ...SCHEMA_MESSAGES,
  'no-resources': 'The server lists no resources.',
  'resource-without-dashdash': {
    message: "Resource '{uri}' has no dashdash object (§3.4.1 SHOULD).",
    hint: 'Add "dashdash": { resourceType, refreshable, cacheDuration }.',
  },
} as const;

export default defineLiveCheck({
  id: 'dashdash-resource-metadata',
  title: "Each resource's dashdash object is valid (resourceType, refreshable, cacheDuration…)",
  spec: {
    doc: 'dashdash',
    section: '3.4',
    level: 'MUST',
    requirements: ['DD-3.4.1-a', 'DD-3.4.2-a', 'DD-3.4.2-b', 'DD-3.4.2-c'],
  },
  needs: 'session',
  reads: ['descriptions'],
  messages,
  async run(ctx) {
    await requireDashdashOrSkip(ctx);
    const { resources, resourcesExchanges: transcript } = ctx.discovery;
    if (!resources.length) ctx.skip('no-resources');
    for (const [i, r] of resources.entries()) {
      const uri = asText(r.uri);
      if (!('dashdash' in r)) {
        ctx.warn('resource-without-dashdash', { uri }, { location: { pointer: `/resources/${i}` } });
        continue;
      }
      ctx.problems(undefined, dashdashResourceProblems(r.dashdash, `/resources/${i}/dashdash`), {
        base: `/resources/${i}/dashdash`,
        transcript,
      });
    }
  },
});
