import { defineLiveCheck } from '../src/run/check.js';
import { DASHDASH_PRESENCE_MESSAGES, requireDashdashOrSkip } from '../src/run/dashdash-presence.js';
import { isPlainObject } from '../src/protocol/payload.js';
import { DASHDASH_MESSAGES, dashdashServerProblems } from '../src/rules/dashdash.js';
import { SCHEMA_MESSAGES } from '../src/rules/schema-problems.js';

const messages = {
  ...DASHDASH_PRESENCE_MESSAGES,
  ...SCHEMA_MESSAGES,
  ...DASHDASH_MESSAGES,
  'not-in-initialize': {
    message: 'The server has dashdash metadata elsewhere but none in the initialize result (§3.1.1 SHOULD).',
    hint: 'Add "dashdash": { specVersion, identity, accessLevel, alternativeAccess } to the initialize result.',
  },
} as const;

export default defineLiveCheck({
  id: 'dashdash-server-metadata',
  title: 'The initialize result carries a valid dashdash object (identity, access level, alternative access)',
  spec: {
    doc: 'dashdash',
    section: '3.1',
    level: 'MUST',
    requirements: [
      'DD-3.1.1-a',
      'DD-3.1.2-a',
      'DD-3.1.2-b',
      'DD-3.1.2-c',
      'DD-3.1.2-d',
      'DD-3.1.2-e',
      'DD-3.1.2-f',
      'DD-3.1.2-g',
      'DD-3.1.2-h',
      'DD-3.1.2-i',
      'DD-3.1.2-j',
      'DD-3.1.2-k',
      'DD-3.1.2-l',
      'DD-3.1.2-m',
      'DD-3.1.2-n',
    ],
  },
  needs: 'session',
  reads: ['descriptions'],
  messages,
  async run(ctx) {
    await requireDashdashOrSkip(ctx);
    const dd = ctx.discovery.initializeResult.dashdash;
    const transcript = ctx.discovery.initializeExchanges;
    if (!isPlainObject(dd)) {
      ctx.warn('not-in-initialize', {}, { transcript });
      return;
    }
    // The same rules as the lint of saved dashdash metadata, with the same codes.
    ctx.problems(undefined, dashdashServerProblems(dd, '/dashdash'), { base: '/dashdash', transcript });
  },
});
