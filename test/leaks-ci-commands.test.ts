// CI log commands never reach a CI runner's parser: those in a linted file's name and content are
// broken in every format, and under GitHub Actions a text report on stdout is fenced off.
import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from './helpers.js';
import { runBounded } from './support/hostile.js';

t.test("CI log commands in a lint file's name and content are broken in every format", async (t) => {
  const dir = join(tempDir(), 'tool_descriptions');
  mkdirSync(dir);
  const name = 'x##vso[task.setvariable variable=y]z';
  writeFileSync(
    join(dir, `${name}.json`),
    JSON.stringify({ name: '::set-output name=a::b ##[error]c', inputSchema: { type: 'object' } }),
  );
  for (const format of ['text', 'github', 'json', 'markdown', 'junit', 'sarif', 'html']) {
    const run = await runBounded(['lint', '--format', format, dir]);
    t.equal(run.code, 1, `${format}: a verdict`);
    const body = format === 'github' ? run.stdout.replace(/^::(error|warning|notice) [^:]*::/gm, '') : run.stdout;
    t.notMatch(body, /##(vso)?\[/i, `${format}: no Azure command anywhere`);
    t.notMatch(body, /::set-output/i, `${format}: no GitHub command anywhere`);
  }
});

t.test('under GitHub Actions, a text report on stdout is fenced off from the command parser', async (t) => {
  const run = await runBounded(
    ['--timeout', '5000', '--explore', '0', '--', 'node', join(ROOT, 'dist', 'reference-server', 'bundle.js')],
    { GITHUB_ACTIONS: 'true' },
  );
  const token = /^::stop-commands::([0-9a-f-]{36})\n/.exec(run.stdout)?.[1];
  t.ok(token, 'the report opens with ::stop-commands::<random token>');
  t.ok(run.stdout.endsWith(`::${token}::\n`), 'and resumes commands at its end only');
});
