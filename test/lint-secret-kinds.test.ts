// lint-no-secrets: each kind of secret is a finding of its own in the text report (a Slack token is
// never "the same" as an AWS key id), and a password given in a description is one.
import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers.js';

t.test('each kind of secret on a line of its own; a password assignment is found', async (t) => {
  const dir = join(tempDir(), 'tool_descriptions');
  mkdirSync(dir);
  // The values are made up for this test (shapes only).
  const leaky = [
    'AKIAIOSFODNN7EXAMPLF',
    `xoxb-${'1234567890'}-abcdefghij`,
    `sk-proj-${'abcdefghijklmnopqrstuvwx'}`,
    'host db.corp',
    'file /home/alice/keys.txt',
    'password=hunter2',
  ].join(', ');
  writeFileSync(
    join(dir, 'connect.json'),
    JSON.stringify({
      name: 'connect',
      description: `Connects with ${leaky}.`,
      inputSchema: { type: 'object', additionalProperties: false },
    }),
  );
  const run = await runCli(['lint', '--only', 'lint-no-secrets', dir]);
  const lines = run.stdout.split('\n').filter((l) => /^ {6}warning /.test(l));
  const kinds = lines.map((l) => /Looks like (an? [^(]+) \(/.exec(l)?.[1].trim());
  t.same(kinds, [
    'an AWS access key id',
    'a Slack token',
    'an API secret key',
    'a password',
    'an absolute file path',
    'an internal host name',
  ]);
  t.notMatch(run.stdout, /the same in/, 'no kind folded into another');
  t.notMatch(run.stdout, /hunter2/, 'the password is masked');
});
