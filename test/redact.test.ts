import t from 'tap';
import {
  DEFAULT_INHERITED_ENV_VARS as SDK_DEFAULT_ENV,
  getDefaultEnvironment,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { parseEnv } from '../src/cli/target-args.js';
import { defaultEnvironment, DEFAULT_INHERITED_ENV_VARS } from '../src/transport/server-environment.js';
import { deepMapStrings, environmentSecrets, headerSecrets, maskCredentials, Redactor } from '../src/safety/redact.js';
import { breakCiCommands, makeVisible } from '../src/util/text.js';

t.test("a stdio server gets what the SDK's getDefaultEnvironment() gives", async (t) => {
  t.same(DEFAULT_INHERITED_ENV_VARS, SDK_DEFAULT_ENV, 'the same variable names as the MCP SDK');
  t.same(defaultEnvironment(), getDefaultEnvironment(), 'and the same values');
  t.same(
    defaultEnvironment({ PATH: '/bin', HOME: '() { evil; }', GITHUB_TOKEN: 'x' }),
    { PATH: '/bin' },
    'shell functions and other variables left out',
  );
});

t.test('--env KEY passes one variable through; KEY=VALUE sets one', async (t) => {
  t.same(parseEnv(['A=1', 'B'], { B: 'two' }), { A: '1', B: 'two' });
  t.throws(() => parseEnv(['MISSING'], {}), /--env MISSING: the variable MISSING is not set/);
  t.throws(() => parseEnv(['=x'], {}), /--env expects KEY=VALUE or KEY/);
});

t.test('which values are secrets', async (t) => {
  const found = environmentSecrets({
    GITHUB_TOKEN: 'ghs_abcdefghijkl',
    NPM_AUTH: 'npmsecret',
    AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI',
    API_KEY: '1',
    FEATURE_AUTH: 'true',
    DATABASE_URL: 'postgres://u:hunter22@db/x',
    PATH: '/usr/bin',
    HOME: '/root',
    // Where certificates and credentials are, not what they are: paths under secret-looking names.
    SSL_CERT_DIR: '/etc/ssl/certs',
    NODE_EXTRA_CA_CERTS: '/usr/local/share/ca-certificates/corp.pem',
    GOOGLE_APPLICATION_CREDENTIALS: '~/.config/gcloud/key.json',
    // A secret that only looks like a path under a name that is not a path's stays a secret.
    SIGNING_SECRET: '/Ab3+xYz9/QrStUv',
  }).map((s) => `${s.source}=${s.value}`);
  t.same(
    found.sort(),
    [
      '$AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI',
      '$DATABASE_URL=hunter22',
      '$GITHUB_TOKEN=ghs_abcdefghijkl',
      '$NPM_AUTH=npmsecret',
      '$SIGNING_SECRET=/Ab3+xYz9/QrStUv',
    ].sort(),
    'secret-looking names with values long enough to matter, and passwords in URLs; not "1" or "true"',
  );
  t.same(
    headerSecrets({ Authorization: 'Bearer abcdefgh12', 'X-Short': 'ab' }).map((s) => s.value),
    ['Bearer abcdefgh12', 'abcdefgh12'],
    'a header value, and the credential after its scheme',
  );
});

t.test('the redactor masks known values, longest first, and credentials by shape', async (t) => {
  const r = new Redactor([
    { value: 'abcdef123', source: '$A_TOKEN' },
    { value: 'abcdef123456', source: '$B_TOKEN' },
  ]);
  t.equal(r.text('x abcdef123456 y abcdef123 z'), 'x [redacted $B_TOKEN] y [redacted $A_TOKEN] z');
  t.equal(r.text('no secret here'), 'no secret here');
  t.equal(maskCredentials(`token ghp_${'a1'.repeat(18)} end`), 'token [redacted a GitHub token] end');
  t.equal(maskCredentials('sk-...your key here'), 'sk-...your key here', 'placeholders stay');
  const value = { abcdef123: ['abcdef123', { deep: 'abcdef123!' }], __proto__x: 1 };
  t.same(
    r.value(value),
    { '[redacted $A_TOKEN]': ['[redacted $A_TOKEN]', { deep: '[redacted $A_TOKEN]!' }], __proto__x: 1 },
    'keys and values, at any depth',
  );
  t.same(value.abcdef123, ['abcdef123', { deep: 'abcdef123!' }], 'the original is left as it was');
  // A few secrets are searched one by one, many by one expression: both mask the same.
  for (const count of [3, 40]) {
    const many = new Redactor(
      Array.from({ length: count }, (_, i) => ({ value: `secret-value-${i}-x`, source: `$S${i}_TOKEN` })),
    );
    t.equal(
      many.text(`a secret-value-${count - 1}-x b secret-value-0-x`),
      `a [redacted $S${count - 1}_TOKEN] b [redacted $S0_TOKEN]`,
      `${count} secrets`,
    );
    t.equal(many.text('none of them'), 'none of them');
  }
});

t.test('deepMapStrings copes with depth and __proto__ keys', async (t) => {
  let deep: unknown = 'leaf';
  for (let i = 0; i < 50_000; i++) deep = [deep];
  t.doesNotThrow(() => deepMapStrings(deep, (s) => s.toUpperCase()), 'no recursion');
  const hostile = JSON.parse('{"__proto__": {"polluted": "yes"}}') as object;
  const copy = deepMapStrings(hostile, (s) => s);
  t.same(Object.keys(copy), ['__proto__'], 'a __proto__ key stays a key');
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype was touched');
});

t.test('CI log commands are broken wherever they are, once', async (t) => {
  t.equal(
    breakCiCommands('a ##vso[task.setvariable variable=x]1 b ##[error]c ::set-output name=a::b'),
    'a # #vso[task.setvariable variable=x]1 b # #[error]c : :set-output name=a: :b',
  );
  t.equal(breakCiCommands('##VSO[task.complete]'), '# #VSO[task.complete]', 'in any case');
  t.equal(breakCiCommands(breakCiCommands('::error::x ##vso[')), breakCiCommands('::error::x ##vso['), 'idempotent');
  t.equal(
    breakCiCommands('resource:///tool_descriptions?tools=a, 12:30, a::1'),
    'resource:///tool_descriptions?tools=a, 12:30, a::1',
    'ordinary colons stay',
  );
  t.equal(makeVisible('x\u001b##vso['), 'x\\x1b# #vso[', 'makeVisible applies it too');
});
