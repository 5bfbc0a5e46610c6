// Text from a hostile server (escapes, bidi controls, forged CI commands, markup) is inert in every
// output format: shown, never performed.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { Validator } from '@cfworker/json-schema';
import { reportSchemaErrors, ROOT, tempDir } from './helpers.js';
import { BOUNDS, HOSTILE, runBounded } from './support/hostile.js';

t.test('text from a hostile server is inert in every output format', async (t) => {
  const dir = tempDir();
  const files = Object.fromEntries(
    ['json', 'junit', 'sarif', 'github', 'markdown', 'html'].map((f) => [f, join(dir, `report.${f}`)]),
  );
  const run = await runBounded([
    ...BOUNDS,
    ...Object.entries(files).flatMap(([f, file]) => ['--report', `${f}=${file}`]),
    '--',
    'node',
    join(HOSTILE, 'hostile-text.js'),
  ]);
  t.equal(run.code, 1);
  const read = (f: string) => readFileSync(files[f], 'utf8');
  const controls = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;

  t.match(run.stdout, /evil\\x1b\[1m_tool/, 'text: the escape is shown, not performed');
  t.notMatch(run.stdout, controls, 'text: no control or bidi characters');
  t.notMatch(run.stdout, /^::/m, 'text: no line that a CI runner would read as a command');
  const commands = /##(vso)?\[|::(error|warning|set-output|stop-commands)/i;
  t.notMatch(run.stdout, commands, 'text: no CI command anywhere in a line');
  for (const f of ['json', 'junit', 'sarif', 'markdown', 'html'])
    t.notMatch(read(f), commands, `${f}: no CI command anywhere`);
  t.notMatch(
    read('github').replace(/^::(error|warning|notice) [^:]*::/gm, ''),
    commands,
    'github: no CI command inside an annotation',
  );

  const github = read('github').trimEnd().split('\n');
  for (const line of github)
    t.match(line, /^::(error|warning|notice) [^\n]*?::[^\n]*$/, 'github: every line is one annotation of ours');
  t.notMatch(read('github'), /^::(error|warning) file=x::/m, 'github: the forged command is not a command');
  t.notMatch(read('github'), controls);

  t.notMatch(read('junit'), controls, 'junit: only characters XML allows');
  t.notMatch(read('junit'), /<script>/, 'junit: markup escaped');
  t.match(read('junit'), /&lt;script&gt;/);

  const md = read('markdown');
  t.notMatch(md, controls, 'markdown: no control or bidi characters');
  t.notMatch(md.replace(/^(`{3,})[\s\S]*?^\1$/gm, ''), /<script>/, 'markdown: no raw HTML outside code blocks');

  const html = read('html');
  t.notMatch(html, /<script/i, 'html: no script element');
  t.notMatch(html, controls, 'html: no control or bidi characters');

  const sarif = JSON.parse(read('sarif'));
  const schema = JSON.parse(
    readFileSync(
      join(ROOT, 'node_modules', '@microsoft', 'jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json'),
      'utf8',
    ),
  );
  t.ok(new Validator(schema, '4', false).validate(sarif).valid, 'sarif: schema-valid');
  const report = JSON.parse(read('json')) as CheckReport;
  t.same(reportSchemaErrors(report), []);
  t.ok(
    JSON.stringify(report).includes('evil\\u001b[1m_tool'),
    'json: the data kept exactly (JSON escaping makes it inert)',
  );
});
