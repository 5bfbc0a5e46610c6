import { defineLintCheck } from '../src/lint/check.js';
import { detectSecrets, strings } from '../src/lint/secrets.js';

const HINT = 'Remove it, or use a placeholder such as <API_KEY> or ${API_KEY}; never ship real credentials, local paths or internal hosts.';

const messages = {
  'credential': { message: 'Looks like {what} ({masked}); published tool metadata is read by every client and LLM.', hint: HINT },
  'disclosure': { message: 'Looks like {what} ({masked}); published tool metadata is read by every client and LLM.', hint: HINT },
} as const;

export default defineLintCheck({
  id: 'lint-no-secrets',
  title: 'Nothing that should not be published: no credentials, private keys, absolute paths or internal hosts',
  spec: { doc: 'progressive-disclosure', section: '10.2', level: 'RECOMMENDED', requirements: ['DD-5.1-a', 'DD-5.1-b'] },
  needs: 'folder',
  messages,
  async run(ctx) {
    for (const file of ctx.files.filter((f) => f.source?.parsed)) {
      for (const hit of await detectSecrets([...strings(file.source!.value)])) {
        ctx.fail(hit.kind, { what: hit.what, masked: hit.masked }, { location: ctx.at(file, hit.pointer) });
      }
    }
  },
});
