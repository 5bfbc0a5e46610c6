// What the model reads is published to every client: no credential, and no internal path, host
// name or private address, in a description of any level, the resource's or the server's
// instructions (the seeds' guide: no internal paths in descriptions). The patterns are
// lint-no-secrets', through the plugin API: one rule, which lint-no-secrets applies to every string
// of the files under lint, and this one to what a live server says — so it runs live only.
import { defineTextRule, findSecrets, redactionsIn } from '../../src/plugin/index.js';
import { docOf, serverTexts } from './texts.js';

export default defineTextRule({
  id: 'internal-details',
  reads: ['listed', 'full', 'resource', 'instructions'],
  runs: ['live'],
  title: 'No credential, internal path or host name in what the model reads',
  spec: { url: docOf('internal-details'), level: 'MUST' },
  messages: {
    'secret-in-text': {
      message: 'What every client reads ({where}) holds {what}: "{span}".',
      hint: 'Remove it from the text and revoke it: it has been published to every client of the server.',
    },
    'internal-in-text': {
      message: 'What every client reads ({where}) names {what}: "{span}".',
      hint: 'Describe the resource in words that hold outside your machine or network ("the project\'s notes folder"), never its path or host.',
    },
  },
  check(texts, report) {
    for (const { text, at } of serverTexts(texts)) {
      const where = at.tool !== undefined ? `tool '${at.tool}', ${at.level} level` : at.level;
      // One finding a text: its credential first (an error; masked by the run before any check reads
      // it), else what it discloses (a warning).
      const masked = redactionsIn(text)[0];
      if (masked !== undefined) {
        report('secret-in-text', { where, what: masked, span: `[redacted ${masked}]` }, at);
        continue;
      }
      const found = findSecrets(text).sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'credential' ? -1 : 1))[0];
      if (!found) continue;
      if (found.kind === 'credential') report('secret-in-text', { where, what: found.what, span: found.masked }, at);
      else report('internal-in-text', { where, what: found.what, span: found.masked }, at, 'warn');
    }
  },
});
