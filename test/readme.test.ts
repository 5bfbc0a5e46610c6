// The README shows what the commands print today (npm run docs writes it), and what it says to run
// runs: a sample that drifted, a documented flag that no command knows, or a command line or client
// configuration that does not end as the README says (test/docs/walk.ts) fails here.
import t from 'tap';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers.js';

t.test('the README samples are what the commands print today, and every documented flag exists', async (t) => {
  const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'test', 'docs', 'readme.js')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
  t.equal(code, 0, out.trim() || 'no output');
  t.match(
    out,
    /README: 4 samples as printed today, every documented flag known \(README and --help\), \d+ commands and configurations run as written, \d+ not run:/,
  );
});

t.test("the README's figure of files a lint reads is the one its sample of that lint prints", async (t) => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const adopting = readFileSync(join(ROOT, 'docs', 'adopting.md'), 'utf8');
  const said = /`pd \(lint, (\d+) files read\)`/.exec(readme)?.[1];
  const printed = /— pd \(lint, (\d+) files read\)/.exec(adopting)?.[1];
  t.ok(said !== undefined && printed !== undefined, 'both say it');
  t.equal(said, printed, "the README's figure is the sample's (docs/adopting.md, written by npm run docs)");
});
