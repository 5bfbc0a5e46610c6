import { defineLintCheck } from '../src/lint/check.js';
import { detectSecrets, mask, strings } from '../src/lint/secrets.js';
import { argumentSecrets } from '../src/safety/arguments.js';
import { isPlainObject } from '../src/protocol/payload.js';

const HINT =
  'Remove it, or use a placeholder such as <API_KEY> or ${API_KEY}; never ship real credentials, local paths or internal hosts.';

const messages = {
  credential: {
    message: 'Looks like {what} ({masked}); published tool metadata is read by every client and LLM.',
    hint: HINT,
  },
  disclosure: {
    message: 'Looks like {what} ({masked}); published tool metadata is read by every client and LLM.',
    hint: HINT,
  },
  'argument-secret': {
    message:
      'The server command passes {source} a literal value ({masked}); a committed config is read by everyone who can read the repository.',
    hint: 'Write "${variable}" in its place (the checker reads the $VARIABLES of a config\'s command from the environment) and set {variable} where the check runs (in CI, as a secret).',
  },
} as const;

export default defineLintCheck({
  id: 'lint-no-secrets',
  title: 'Nothing that should not be published: no credentials, private keys, absolute paths or internal hosts',
  spec: {
    doc: 'progressive-disclosure',
    section: '10.2',
    level: 'RECOMMENDED',
    requirements: ['DD-5.1-a', 'DD-5.1-b'],
  },
  needs: 'folder',
  messages,
  async run(ctx) {
    for (const file of ctx.parsedOrSkip()) {
      const said = new Set<string>();
      for (const hit of await detectSecrets([...strings(file.source!.value)])) {
        said.add(hit.pointer);
        ctx.fail(hit.kind, { what: hit.what, masked: hit.masked }, { location: ctx.at(file, hit.pointer) });
      }
      // A key given to the server as an argument (--api-key X) has no shape to be recognised by:
      // its flag says what it is (the rule the redactor and init read too).
      const config = file.source!.value;
      if (file.kind !== 'checker-config' || !isPlainObject(config) || !Array.isArray(config.command)) continue;
      const words = config.command.filter((w): w is string => typeof w === 'string');
      for (const s of argumentSecrets(words)) {
        if (said.has(`/command/${s.index}`)) continue;
        ctx.fail(
          'argument-secret',
          { source: s.source, masked: mask(s.value), variable: s.variable },
          { location: ctx.at(file, `/command/${s.index}`) },
        );
      }
    }
  },
});
