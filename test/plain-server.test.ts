import t from 'tap';
import { PD_CRITERIA } from '../checks/index.js';
import { join } from 'node:path';
import { checkJson, fixtureBundle, ROOT, runCli, tempDir } from './helpers.js';

t.test('an ordinary MCP server fails the nine criteria with readable messages, quickly', async (t) => {
  const { run, report } = await checkJson(['node', fixtureBundle('plain-mcp-server')]);
  t.equal(run.code, 1, 'exit 1');
  t.ok(run.ms < 30_000, `did not hang (${Math.round(run.ms)} ms; the speed itself is measured by hand, not here)`);
  const criteria = report.results.filter((r) => PD_CRITERIA.some((c) => c.id === r.id));
  t.equal(criteria.length, 9);
  // Without the resource, the root cause is reported once (pd-resource-listed) and the criteria
  // that need it say in one line that they cannot be tested.
  const needsResource = [
    'pd-tools-parameter',
    'pd-full-descriptions',
    'pd-missing-tool-selection',
    'pd-authorization-enforced',
    'pd-session-isolation',
    'pd-unknown-tool',
  ];
  for (const r of criteria) {
    if (needsResource.includes(r.id)) {
      t.equal(r.status, 'skip', `${r.id} is not testable`);
      t.same(
        r.findings.map((f) => f.code),
        ['not-testable'],
        `${r.id} says so in one line`,
      );
      continue;
    }
    t.equal(r.status, 'fail', `${r.id} does not pass`);
    const messages = r.findings.filter((f) => f.level !== 'info');
    t.ok(messages.length > 0, `${r.id} says why`);
    for (const f of messages) {
      t.notMatch(
        f.message,
        /\bat .+:\d+:\d+\)|Error:|undefined|\[object Object\]/,
        `plain words, no stack: ${f.message}`,
      );
      t.ok(f.hint, 'and how to fix it');
    }
  }
  t.equal(report.verdict?.implements, 'no', 'the verdict: no');
  // The tool form of the resource is left untested too (nothing to mirror): said in the same line.
  t.same(report.verdict?.notTestable, [...needsResource, 'pd-descriptions-tool']);
});

t.test('the text report of an ordinary server has no stack trace', async (t) => {
  const run = await runCli(['--', 'node', fixtureBundle('plain-mcp-server')]);
  t.equal(run.code, 1);
  t.match(run.stdout, /FAILED \(\d+\)/);
  t.match(run.stdout, /✗ pd-minimal-descriptions/);
  t.notMatch(run.stdout + run.stderr, /\n\s+at [\w.<>]+ \(/);
});

t.test(
  'printed commands can be pasted: a secret of the server command is ${VAR}, said how to set it, never its value',
  async (t) => {
    const key = 'sk-live-4f7a9c2e1b3d5a6f';
    const run = await runCli(['--explore', '0', '--', 'node', fixtureBundle('plain-mcp-server'), `--api-key=${key}`]);
    t.equal(run.code, 1);
    t.match(
      run.stdout,
      /\n {2}node dist\/cli\/cli\.js init --out pd -- node \S+plain-mcp-server\.bundle\.js "--api-key=\$\{API_KEY\}"\n/,
      'the Next line holds the placeholder, in quotes the shell expands, and the checker as this run started it',
    );
    t.match(run.stdout, /\(API_KEY is read from the environment: export API_KEY=… first; the value is never printed\)/);
    t.notMatch(run.stdout + run.stderr, new RegExp(key), 'the value is nowhere');
    t.notMatch(run.stdout, /\[redacted/, 'no [redacted …] marker in a command to paste');
    // The server starts again as it did here: its --cwd and --env (by name) on the init line, its --cwd on serve's.
    const dir = tempDir();
    const started = await runCli([
      '--explore',
      '0',
      '--cwd',
      dir,
      '--env',
      'PLAIN_MODE=mode-7q3x',
      '--env',
      `PLAIN_TOKEN=${key}`,
      '--',
      'node',
      fixtureBundle('plain-mcp-server'),
    ]);
    t.match(
      started.stdout,
      new RegExp(
        `\\n {2}node dist/cli/cli\\.js init --out pd --cwd ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} --env PLAIN_MODE --env PLAIN_TOKEN -- node \\S+plain-mcp-server\\.bundle\\.js\\n`,
      ),
      'the Next line starts the server as this run did',
    );
    t.match(started.stdout, /serve --descriptions pd --cwd \S+ -- node /, 'serve keeps its --cwd');
    t.match(
      started.stdout,
      /\(PLAIN_MODE, PLAIN_TOKEN are read from the environment: export PLAIN_MODE=… PLAIN_TOKEN=… first; their values are never printed\)/,
    );
    t.notMatch(started.stdout + started.stderr, /mode-7q3x|sk-live/, 'no value is printed');
    const serve = await runCli(['serve']);
    t.equal(serve.code, 2);
    t.match(
      serve.stderr,
      /mcp-pd-check serve --descriptions pd -- node server\.js/,
      'serve without a command: the example names serve',
    );
  },
);

t.test(
  'tools left uncalled because another call already proved it are "not called", never "to do no harm"',
  async (t) => {
    const memory = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
    const { report } = await checkJson(
      ['node', memory],
      ['--explore', '0', '--env', `MEMORY_FILE_PATH=${join(tempDir(), 'memory.json')}`],
    );
    const provesNothing = (report.verdict?.notCalled ?? []).filter((n) => /would prove nothing new/.test(n.why));
    t.ok(provesNothing.length > 0, 'some tools were left: an unfetched call already ran');
    t.ok(
      provesNothing.every((n) => n.harm === false),
      'and not to do harm',
    );
    const text = await runCli([
      '--explore',
      '0',
      '--env',
      `MEMORY_FILE_PATH=${join(tempDir(), 'memory.json')}`,
      '--',
      'node',
      memory,
    ]);
    t.notMatch(
      text.stdout,
      /not called, to do no harm: [^\n]*would prove nothing new/,
      'the text says it under "not called"',
    );
  },
);
