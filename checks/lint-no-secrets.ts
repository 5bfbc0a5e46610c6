import { defineCheck } from '../src/check.js';
import type { LintContext } from '../src/lint/context.js';
import { findSecrets, strings } from '../src/lint/secrets.js';

export default defineCheck<LintContext>({
  id: 'lint-no-secrets',
  title: 'Nothing that should not be published: no credentials, private keys, absolute paths or internal hosts',
  spec: { doc: 'progressive-disclosure', section: '10.2', level: 'RECOMMENDED', requirements: ['DD-5.1-a', 'DD-5.1-b'] },
  needs: 'folder',
  async run(ctx) {
    for (const file of ctx.files.filter((f) => f.source?.parsed)) {
      for (const [pointer, text] of strings(file.source!.value)) {
        for (const hit of findSecrets(text)) {
          ctx.fail(`Looks like ${hit.what} (${hit.masked}); published tool metadata is read by every client and LLM.`, {
            location: ctx.at(file, pointer),
            hint: 'Remove it, or use a placeholder such as <API_KEY> or ${API_KEY}; never ship real credentials, local paths or internal hosts.',
          });
        }
      }
    }
  },
});
