// The example plugin (examples/plugin-acme, docs/plugins.md) exactly as people use it: mcp-pd-check
// and the plugin packed, installed into a scratch project from their tarballs, the plugin loaded from
// the project's config file and with --plugin; its checks run beside ours against the reference
// server (they pass) and against a server without annotations (one fails), over stdio and HTTP, in
// every report format, a baseline, explain, list-checks and a merged fleet report. Its author's side
// too: the plugin's own tests (node --test, mcp-pd-check/testing) pass against the packed checker, and
// it imports nothing of ours but the public entry points.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@cfworker/json-schema';
import type { CheckReport } from '../src/generated/report.js';
import { fixtureBundle, REFERENCE, ROOT, startHttp, tempDir } from './helpers.js';

const EXAMPLE = join(ROOT, 'examples', 'plugin-acme');
const UNANNOTATED = fixtureBundle('pd-description-required--shared-grants-unannotated');
const SARIF_SCHEMA = join(ROOT, 'node_modules', '@microsoft', 'jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json');
const FAST = ['--explore', '0', '--protocol', '2025-11-25'];

const run = (command: string, args: string[], cwd: string) =>
  spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 300_000, env: { ...process.env, NO_COLOR: '1' } });
const npm = (args: string[], cwd: string) => run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], cwd);
/** The installed checker, as the project runs it. */
const checker = (args: string[], cwd: string) => run('npx', ['--no-install', 'mcp-pd-check', ...args], cwd);

/** mcp-pd-check and the example plugin, packed (the checker is already built by npm test). */
function pack(): { checker: string; plugin: string } {
  const dir = tempDir();
  const packed = (cwd: string, ignoreScripts: boolean) => {
    const out = npm(['pack', ...(ignoreScripts ? ['--ignore-scripts'] : []), '--pack-destination', dir], cwd);
    if (out.status !== 0) throw new Error(out.stderr);
  };
  packed(ROOT, true);
  packed(EXAMPLE, false);
  const find = (prefix: string) =>
    join(
      dir,
      readdirSync(dir).find((f) => f.startsWith(prefix) && f.endsWith('.tgz'))!,
    );
  return { checker: find('mcp-pd-check-0'), plugin: find('mcp-pd-check-plugin-acme-') };
}

const tarballs = pack();
const results = (stdout: string) =>
  Object.fromEntries(
    (JSON.parse(stdout) as CheckReport).results.filter((r) => r.id.startsWith('acme/')).map((r) => [r.id, r.status]),
  );

t.test(
  "the plugin's author: its own tests pass against the packed checker, and it imports only public entry points",
  async (t) => {
    const dir = tempDir();
    cpSync(EXAMPLE, dir, { recursive: true });
    t.equal(npm(['install', '--save-dev', tarballs.checker], dir).status, 0, 'mcp-pd-check installed beside it');
    const tests = npm(['test'], dir);
    t.equal(tests.status, 0, `npm test of the plugin: ${tests.stdout.slice(-600)}${tests.stderr.slice(-600)}`);
    t.match(tests.stdout, /# pass 3/, 'its three tests ran and passed');
    const sources = [
      'index.js',
      ...readdirSync(join(EXAMPLE, 'checks')).map((f) => join('checks', f)),
      ...readdirSync(join(EXAMPLE, 'test')).map((f) => join('test', f)),
    ];
    for (const file of sources) {
      const imports = [...readFileSync(join(EXAMPLE, file), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      const ours = imports.filter((i) => i.startsWith('mcp-pd-check'));
      t.same(
        ours.filter((i) => i !== 'mcp-pd-check/plugin' && i !== 'mcp-pd-check/testing'),
        [],
        `${file} imports mcp-pd-check only through mcp-pd-check/plugin and /testing (${ours.join(', ') || 'none'})`,
      );
      t.same(
        imports.filter((i) => !i.startsWith('mcp-pd-check') && !i.startsWith('node:') && !i.startsWith('.')),
        [],
        `${file} imports nothing else but Node and its own files`,
      );
    }
  },
);

t.test(
  'a project: loaded from its config and with --plugin, run beside ours over stdio and HTTP, in every format',
  async (t) => {
    const project = tempDir();
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'acme-server', version: '1.0.0', type: 'module', private: true }),
    );
    const install = npm(['install', '--save-dev', tarballs.checker, tarballs.plugin], project);
    t.equal(install.status, 0, `installed from the tarballs: ${install.stderr}`);
    writeFileSync(
      join(project, 'mcp-pd-check.config.json'),
      JSON.stringify({ plugins: ['mcp-pd-check-plugin-acme'] }, null, 2),
    );

    const passing = checker(['--format', 'json', ...FAST, '--', 'node', REFERENCE], project);
    t.equal(passing.status, 0, `the reference server passes ours and Acme's: ${passing.stderr}`);
    t.same(
      results(passing.stdout),
      { 'acme/annotations-explicit': 'pass', 'acme/description-length': 'pass' },
      "Acme's live checks ran (from the config)",
    );

    const failing = checker(['--format', 'json', ...FAST, '--', 'node', UNANNOTATED], project);
    t.equal(failing.status, 1, 'a MUST of the plugin fails the run');
    t.equal(
      results(failing.stdout)['acme/annotations-explicit'],
      'fail',
      'tools without annotations fail acme/annotations-explicit',
    );
    const verdict = (JSON.parse(failing.stdout) as CheckReport).verdict;
    t.notOk(
      verdict?.failing.some((id) => id.startsWith('acme/')),
      'the verdict on progressive disclosure is ours alone',
    );

    const http = await startHttp(UNANNOTATED);
    t.teardown(http.stop);
    const overHttp = checker(['--format', 'json', ...FAST, '--url', http.url], project);
    t.equal(results(overHttp.stdout)['acme/annotations-explicit'], 'fail', 'over Streamable HTTP too');

    // Without the config: --plugin names the package (resolved from the project).
    writeFileSync(join(project, 'no-config.json'), '{}');
    const flag = checker(
      [
        '--config',
        'no-config.json',
        '--plugin',
        'mcp-pd-check-plugin-acme',
        '--format',
        'json',
        ...FAST,
        '--',
        'node',
        UNANNOTATED,
      ],
      project,
    );
    t.equal(results(flag.stdout)['acme/annotations-explicit'], 'fail', '--plugin loads it without a config');

    // Every report format names the plugin's check; SARIF is valid 2.1.0 with the namespaced rule.
    const out = (f: string) => join(project, f);
    const all = checker(
      [
        '--format',
        'text',
        ...FAST,
        '--report',
        `sarif=${out('r.sarif')}`,
        '--report',
        `junit=${out('r.xml')}`,
        '--report',
        `markdown=${out('r.md')}`,
        '--report',
        `html=${out('r.html')}`,
        '--report',
        `github=${out('r.github')}`,
        '--report',
        `json=${out('r.json')}`,
        '--',
        'node',
        UNANNOTATED,
      ],
      project,
    );
    t.match(all.stdout, /acme\/annotations-explicit/, 'text');
    for (const file of ['r.xml', 'r.md', 'r.html', 'r.github', 'r.json'])
      t.match(readFileSync(out(file), 'utf8'), /acme\/annotations-explicit/, file);
    const sarif = JSON.parse(readFileSync(out('r.sarif'), 'utf8')) as {
      runs: Array<{ tool: { driver: { rules: Array<{ id: string; helpUri?: string }> } } }>;
    };
    const validation = new Validator(JSON.parse(readFileSync(SARIF_SCHEMA, 'utf8')), '4', false).validate(sarif);
    t.ok(validation.valid, `SARIF valid against the 2.1.0 schema: ${JSON.stringify(validation.errors.slice(0, 3))}`);
    const rule = sarif.runs[0].tool.driver.rules.find((r) => r.id === 'acme/annotations-explicit');
    t.match(
      rule?.helpUri,
      /^https:\/\/github\.com\/acme\/mcp-rules\//,
      "the rule's help URI is the plugin's documentation",
    );

    // A baseline accepts the plugin's findings as it accepts ours.
    const baseline = out('baseline.json');
    checker(
      ['--format', 'json', ...FAST, '--baseline', baseline, '--update-baseline', '--', 'node', UNANNOTATED],
      project,
    );
    t.match(readFileSync(baseline, 'utf8'), /acme\/annotations-explicit/, 'the baseline holds the plugin check');
    const accepted = checker(['--format', 'json', ...FAST, '--baseline', baseline, '--', 'node', UNANNOTATED], project);
    t.equal(accepted.status, 0, 'with the baseline, its accepted findings no longer fail the run');

    // explain and list-checks know it from the project's config.
    const explain = checker(['explain', 'acme/annotations-explicit'], project);
    t.equal(explain.status, 0, explain.stderr);
    t.match(explain.stdout, /plugin:\s+acme 1\.0\.0/);
    t.match(explain.stdout, /hint-missing .*\n\s+fix: Give both hints/);
    const list = checker(['list-checks'], project);
    t.match(list.stdout, /acme\/card-owner\s+acme §card-owner\s+MUST\s+folder/, 'list-checks lists its lint check too');

    // Lint: the plugin's lint check on a Tool Card without an owner.
    const cards = join(project, 'cards');
    cpSync(join(ROOT, 'reference-server', '.well-known', 'mcp-tools'), cards, { recursive: true });
    const lint = checker(['lint', '--format', 'json', '--only', 'acme/', cards], project);
    t.equal(lint.status, 1, "the lint fails on Acme's rule");
    t.equal((JSON.parse(lint.stdout) as CheckReport).results.find((r) => r.id === 'acme/card-owner')?.status, 'fail');

    // A fleet in two shards, merged: the plugin's checks in the merged report.
    const fleet = join(project, 'fleet.json');
    writeFileSync(
      fleet,
      JSON.stringify({
        mcpServers: {
          alpha: { command: 'node', args: [REFERENCE] },
          charlie: { command: 'node', args: [UNANNOTATED] },
        },
      }),
    );
    for (const k of [1, 2])
      checker(
        [
          '--server-config',
          fleet,
          '--shard',
          `${k}/2`,
          ...FAST,
          '--format',
          'json',
          '--output',
          out(`shard-${k}.json`),
        ],
        project,
      );
    const merged = checker(['merge', out('shard-1.json'), out('shard-2.json'), '--format', 'json'], project);
    const servers = (JSON.parse(merged.stdout) as { servers: Array<{ name: string; report?: CheckReport }> }).servers;
    t.same(
      Object.fromEntries(
        servers.map((s) => [s.name, s.report?.results.find((r) => r.id === 'acme/annotations-explicit')?.status]),
      ),
      { alpha: 'pass', charlie: 'fail' },
      'the merged fleet report holds the plugin check of each server',
    );
  },
);
