// Plugins (docs/plugins.md): a broken plugin is the plugin's problem, said in one line (exit 2); a
// plugin's check that throws, rejects, hangs or reports a code it did not declare is an `error`
// result that names the plugin, and every other check runs on; a plugin's calls go through the run's
// door (no destructive tool is called) and what it reads is masked as ours is; the user's `rules`
// decide what runs and how it fails. Each plugin is a module written here, importing the built
// mcp-pd-check/plugin by its file (a project would import the package).
import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CheckReport } from '../src/generated/report.js';
import { REFERENCE, ROOT, runCli, tempDir } from './helpers.js';
import { HOSTILE } from './support/hostile.js';
import { runWork } from '../src/core/execute.js';
import { FindingSink, SHARED_MESSAGES } from '../src/core/findings.js';

const API = pathToFileURL(join(ROOT, 'dist', 'src', 'plugin', 'index.js')).href;

/** Writes a plugin module whose checks are `checks` (JavaScript source of an array), and returns its path. */
function plugin(
  dir: string,
  file: string,
  checks: string,
  header = `name: 'team', version: '1.0.0', apiVersion: PLUGIN_API_VERSION`,
): string {
  const path = join(dir, file);
  writeFileSync(
    path,
    `import { definePlugin, defineLiveCheck, PLUGIN_API_VERSION } from '${API}';\n` +
      `const spec = { url: 'https://example.com/rules', level: 'MUST' };\n` +
      `export default definePlugin({ ${header}, checks: ${checks} });\n`,
  );
  return path;
}

const ok = `defineLiveCheck({ id: 'fine', title: 'Always passes', spec, needs: 'session', messages: { 'never': 'Never said.' }, async run() {} })`;
const only = ['--only', 'pd-minimal-descriptions', '--protocol', '2025-11-25', '--explore', '0'];

t.test('a broken plugin is exit 2 and one line that names it, before anything starts', async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'syntax.js'), 'export default {\n  oops oops\n};\n');
  writeFileSync(join(dir, 'nothing.js'), 'export const x = 1;\n');
  const cases: Array<[string, string, RegExp]> = [
    [
      'no such file',
      './missing.js',
      /^mcp-pd-check: plugin '\.\/missing\.js': there is no file .*missing\.js \(a path is relative to /,
    ],
    [
      'not installed',
      'mcp-pd-check-plugin-nowhere',
      /^mcp-pd-check: plugin 'mcp-pd-check-plugin-nowhere' is not installed where the project is \(no node_modules\/mcp-pd-check-plugin-nowhere from .* up\): npm install --save-dev mcp-pd-check-plugin-nowhere/,
    ],
    [
      'an import that fails',
      './syntax.js',
      /^mcp-pd-check: plugin '\.\/syntax\.js': importing .*syntax\.js failed: SyntaxError: .*\(.*syntax\.js:\d+\)$/,
    ],
    [
      'no plugin exported',
      './nothing.js',
      /^mcp-pd-check: plugin '\.\/nothing\.js' exports no plugin: its default export must be definePlugin\(\{ name, version, apiVersion, checks \}\) from mcp-pd-check\/plugin/,
    ],
    [
      'another API version',
      `./${plugin(dir, 'api.js', `[${ok}]`, "name: 'team', version: '1.0.0', apiVersion: 99").split('/').pop()}`,
      /^mcp-pd-check: plugin 'team' was written for plugin API 99; this mcp-pd-check speaks API 1: /,
    ],
    [
      'a check id repeated',
      `./${plugin(dir, 'twice.js', `[${ok}, ${ok}]`).split('/').pop()}`,
      /^mcp-pd-check: plugin 'team' defines the live check 'team\/fine' twice: a check id is stable and unique$/,
    ],
    [
      'a bad check id',
      `./${plugin(dir, 'badid.js', `[{ ...${ok}, id: 'Bad_Id' }]`).split('/').pop()}`,
      /^mcp-pd-check: plugin 'team': check id 'Bad_Id' must be kebab-case/,
    ],
    [
      'a code without a message',
      `./${plugin(dir, 'nomessage.js', `[{ ...${ok}, messages: { 'said': {} } }]`).split('/').pop()}`,
      /^mcp-pd-check: plugin 'team': check 'team\/fine' defines the code 'said' without a message$/,
    ],
  ];
  for (const [what, given, line] of cases) {
    const run = await runCli(['--plugin', given, ...only, '--', 'node', REFERENCE], { cwd: dir });
    t.equal(run.code, 2, `${what}: exit 2`);
    const lines = run.stderr.trim().split('\n');
    t.equal(lines.length, 1, `${what}: one line (${run.stderr.trim()})`);
    t.match(lines[0], line, what);
    t.notMatch(run.stderr, /\n\s+at /, `${what}: no stack trace`);
  }
  // Two plugins of one name, from the config file: paths there are relative to the file.
  mkdirSync(join(dir, 'config'));
  plugin(join(dir, 'config'), 'a.js', `[${ok}]`);
  plugin(join(dir, 'config'), 'b.js', `[${ok}]`);
  writeFileSync(join(dir, 'config', 'mcp-pd-check.config.json'), JSON.stringify({ plugins: ['./a.js', './b.js'] }));
  const twice = await runCli(
    ['--config', join(dir, 'config', 'mcp-pd-check.config.json'), ...only, '--', 'node', REFERENCE],
    { cwd: dir },
  );
  t.equal(twice.code, 2);
  t.match(
    twice.stderr,
    /^mcp-pd-check: two plugins are named 'team' \(.*a\.js and .*b\.js\): a plugin's name is its checks' namespace, so it must be unique\n$/,
  );
});

t.test(
  "a plugin's check that throws, rejects, hangs or reports an undeclared code is an error naming the plugin; the others run on",
  async (t) => {
    const dir = tempDir();
    const checks = `[
    defineLiveCheck({ id: 'throws', title: 'Throws', spec, needs: 'session', messages: { 'x': 'X.' }, run() { throw new TypeError('boom in the plugin'); } }),
    defineLiveCheck({ id: 'rejects', title: 'Rejects', spec, needs: 'session', messages: { 'x': 'X.' }, async run() { await Promise.resolve(); throw new Error('rejected in the plugin'); } }),
    defineLiveCheck({ id: 'undeclared', title: 'Reports a code it never declared', spec, needs: 'session', messages: { 'x': 'X.' }, async run(ctx) { ctx.fail('not-declared', {}); } }),
    defineLiveCheck({ id: 'hangs', title: 'Never ends', spec, needs: 'session', messages: { 'x': 'X.' }, run() { return new Promise(() => {}); } }),
    ${ok},
  ]`;
    const file = plugin(dir, 'broken-checks.js', checks);
    const run = await runCli([
      '--format',
      'json',
      '--plugin',
      file,
      ...only,
      '--only',
      'team/',
      '--max-duration',
      '20',
      '--',
      'node',
      REFERENCE,
    ]);
    t.equal(run.code, 1, 'exit 1: the errors count as failures, never 70 (a crash)');
    const report = JSON.parse(run.stdout) as CheckReport;
    const result = (id: string) => report.results.find((r) => r.id === `team/${id}`);
    for (const [id, text] of [
      ['throws', 'TypeError: boom in the plugin|boom in the plugin'],
      ['rejects', 'rejected in the plugin'],
    ] as const) {
      t.equal(result(id)?.status, 'error', `${id}: error`);
      const f = result(id)?.findings[0];
      t.equal(f?.code, 'plugin-check-crashed');
      t.match(
        f?.message,
        new RegExp(`The check of the plugin 'team' failed: (${text}) \\(at .*broken-checks\\.js:\\d+:\\d+\\)`),
        `${id}: the plugin named, and the place in its file`,
      );
    }
    t.equal(result('undeclared')?.status, 'error');
    t.match(
      result('undeclared')?.findings[0]?.message,
      /the check reported the code 'not-declared', which its messages do not define/,
    );
    t.equal(result('hangs')?.status, 'error', 'a check that never ends is stopped by the run');
    t.equal(result('fine')?.status, 'pass', "the plugin's other check ran");
    t.equal(report.results.find((r) => r.id === 'pd-minimal-descriptions')?.status, 'pass', 'ours ran');
  },
);

t.test("a plugin's calls go through the run's door, and what it reads is masked as ours is", async (t) => {
  const dir = tempDir();
  const checks = `[
    defineLiveCheck({ id: 'calls', title: 'Calls tools', spec: { ...spec, level: 'SHOULD' }, needs: 'session', reads: ['unfetched-calls'], opens: 1, messages: { 'called': '{tool}: {what}' }, async run(ctx) {
      const session = await ctx.session();
      for (const tool of ['delete_note', 'get_env']) {
        if (!ctx.tools.names.includes(tool)) continue;
        const ex = await ctx.call(session, tool, {});
        ctx.warn('called', { tool, what: ex ? JSON.stringify(ex.response ?? ex.noResponse) : 'not called' });
      }
    } }),
  ]`;
  const file = plugin(dir, 'caller.js', checks);
  const guarded = await runCli([
    '--format',
    'json',
    '--plugin',
    file,
    '--only',
    'team/',
    '--protocol',
    '2025-11-25',
    '--explore',
    '0',
    '--',
    'node',
    REFERENCE,
  ]);
  const calls = (JSON.parse(guarded.stdout) as CheckReport).results.find((r) => r.id === 'team/calls');
  t.same(
    calls?.findings.map((f) => f.args),
    [{ tool: 'delete_note', what: 'not called' }],
    'delete_note (destructive) is not called for a plugin either',
  );
  const secret = 'sk-live-9f8e7d6c5b4a39281706f5e4d3c2b1a0';
  const echoed = await runCli(
    [
      '--format',
      'json',
      '--plugin',
      file,
      '--only',
      'team/',
      '--protocol',
      '2025-11-25',
      '--explore',
      '0',
      '--env',
      'MCP_PD_FAKE_API_TOKEN',
      '--',
      'node',
      join(HOSTILE, 'env-echo.js'),
    ],
    { env: { MCP_PD_FAKE_API_TOKEN: secret } },
  );
  t.match(echoed.stdout, /team\/calls/);
  t.match(echoed.stdout, /get_env/, 'the plugin called the read-only tool');
  t.notMatch(echoed.stdout, new RegExp(secret), 'the secret it read is masked in the report');
});

t.test(
  "rules: the user's level of every check, ours and a plugin's; an unknown id is exit 2 with the nearest",
  async (t) => {
    const dir = tempDir();
    plugin(
      dir,
      'prefix.js',
      `[defineLiveCheck({ id: 'tool-prefix', title: 'Names start with acme_', spec: { ...spec, level: 'SHOULD' }, needs: 'session', messages: { 'no-prefix': "'{tool}' does not start with acme_." }, async run(ctx) { for (const t of ctx.discovery.tools) if (!String(t.name).startsWith('acme_')) ctx.fail('no-prefix', { tool: String(t.name) }); } })]`,
    );
    const config = (rules: Record<string, string>) => {
      const path = join(dir, `config-${Object.values(rules).join('-')}.json`);
      writeFileSync(path, JSON.stringify({ plugins: ['./prefix.js'], rules }));
      return path;
    };
    const base = ['--format', 'json', '--only', 'pd-token-savings,team/', '--protocol', '2025-11-25', '--explore', '0'];
    const asWritten = await runCli([...base, '--config', config({}), '--', 'node', REFERENCE]);
    const results = (run: typeof asWritten) =>
      (JSON.parse(run.stdout) as CheckReport).results.map((r) => `${r.id} ${r.status}`).sort();
    t.same(results(asWritten), ['pd-token-savings pass', 'team/tool-prefix warn'], 'a SHOULD of the plugin warns');
    t.equal(asWritten.code, 0, 'a warning does not fail the run');
    const set = await runCli([
      ...base,
      '--config',
      config({ 'pd-token-savings': 'off', 'team/tool-prefix': 'error' }),
      '--',
      'node',
      REFERENCE,
    ]);
    t.same(results(set), ['team/tool-prefix fail'], 'off: not run; error: its failures fail');
    t.equal(set.code, 1, 'and the exit code follows');
    const flag = await runCli([
      ...base,
      '--config',
      config({}),
      '--rule',
      'team/tool-prefix=off',
      '--',
      'node',
      REFERENCE,
    ]);
    t.same(results(flag), ['pd-token-savings pass'], '--rule on the command line');
    const typo = await runCli([...base, '--config', config({ 'pd-token-saving': 'off' }), '--', 'node', REFERENCE]);
    t.equal(typo.code, 2);
    t.match(
      typo.stderr,
      /^mcp-pd-check: rules: no check is called 'pd-token-saving' \(did you mean 'pd-token-savings'\?\); run 'mcp-pd-check list-checks' to see them all\n$/,
    );
    const level = await runCli([...base, '--config', config({ 'pd-token-savings': 'loud' }), '--', 'node', REFERENCE]);
    t.equal(level.code, 2);
    t.match(level.stderr, /'loud'|"loud"|off, warn or error/);
  },
);

t.test(
  'a crash of a plugin shipped inside the checker (the quality rules) is placed in src/, not in the bundle',
  async (t) => {
    const sink = new FindingSink(SHARED_MESSAGES, 'error');
    // As the bundle's mapped stack reads: a frame of the bundle itself, then the source file it came from.
    const crash = Object.assign(new Error('boom'), {
      stack:
        'TypeError: boom\n    at Nne (/opt/x/dist/cli/main.cjs:350:5585)\n    at check (src/plugin/text-rule.ts:98:7)',
    });
    const outcome = await runWork(sink, () => Promise.reject(crash), { ms: 60_000 }, { name: 'quality', version: '1' });
    t.same(outcome, { errored: true });
    t.match(
      sink.findings[0]?.message,
      /\(at src\/plugin\/text-rule\.ts:98:7\)\.$/,
      `in src/: ${sink.findings[0]?.message}`,
    );
  },
);
