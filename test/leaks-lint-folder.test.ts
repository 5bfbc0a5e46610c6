// A hostile folder to lint: a FIFO is not opened, links out of it are not followed, loops are
// reported once, and nothing from outside the folder is printed.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { reportSchemaErrors, tempDir } from './helpers.js';
import { runBounded } from './support/hostile.js';

/** A folder to lint with a FIFO, links out of it, a loop and a self-link, next to "private" files. */
function hostileFolder(): { dir: string; outside: string } {
  const root = tempDir();
  const outside = join(root, 'outside');
  const dir = join(root, 'project', 'tool_descriptions');
  mkdirSync(outside, { recursive: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(outside, 'shadow'), 'root:$6$saltsalt$hashhashhashhash:19000:0:99999:7:::\n');
  writeFileSync(
    join(outside, 'private.json'),
    JSON.stringify({ name: 'outside_tool', inputSchema: { type: 'object' }, password: 'hunter2hunter2' }),
  );
  writeFileSync(
    join(dir, 'good.json'),
    JSON.stringify({ name: 'good', description: 'A good tool.', inputSchema: { type: 'object' } }),
  );
  execFileSync('mkfifo', [join(dir, 'pipe.json')]);
  symlinkSync(join(outside, 'shadow'), join(dir, 'shadow.json'));
  symlinkSync(join(outside, 'private.json'), join(dir, 'private.json'));
  symlinkSync(outside, join(dir, 'elsewhere'));
  symlinkSync('.', join(dir, 'loop'));
  symlinkSync('self.json', join(dir, 'self.json'));
  symlinkSync('good.json', join(dir, 'alias.json'));
  return { dir, outside };
}

t.test('lint: a FIFO is not opened, links out are not followed, loops are reported once', async (t) => {
  const { dir } = hostileFolder();
  for (const args of [[dir], [join(dir, '*.json')]]) {
    const run = await runBounded(['lint', '--format', 'json', ...args]);
    t.notOk(run.killed, `${args[0]}: finished (took ${Math.round(run.ms)} ms)`);
    t.equal(run.code, 1, 'exit 1: the FIFO is an error');
    const report = JSON.parse(run.stdout) as CheckReport;
    t.same(reportSchemaErrors(report), []);
    const messages = report.results.flatMap((r) => r.findings.map((f) => f.message)).join('\n');
    t.match(messages, /pipe\.json is a named pipe \(FIFO\), not a regular file; it was not opened/);
    t.match(messages, /shadow\.json is a symlink that was not followed: it points outside the linted folder/);
    t.match(messages, /private\.json is a symlink that was not followed/);
    t.match(messages, /self\.json is a symlink loop/);
    if (args[0] === dir) {
      t.match(messages, /elsewhere is a symlink that was not followed/, 'a folder link out is not followed');
      t.equal(messages.match(/loop is a symlink loop/g)?.length, 1, 'the folder loop is reported once');
    }
    for (const text of [run.stdout, run.stderr]) {
      t.notMatch(text, /root:|\$6\$|hashhash|outside_tool|hunter2/, 'nothing from outside the folder is printed');
    }
    t.equal(
      report.results
        .find((r) => r.id === 'lint-tool-descriptions')
        ?.findings.filter((f) => /two tool descriptions/i.test(f.message)).length,
      0,
      'a link to a file inside is linted once',
    );
  }
});
