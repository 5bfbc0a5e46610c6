// The commands a report or a summary prints start the checker as this run was started (issue 73,
// item 12): `node dist/cli/cli.js` from a clone, `npx mcp-pd-check` through npx, `mcp-pd-check`
// from PATH; a fleet gives each server a folder of its own; a client's configuration gets absolute
// paths, since the client starts the server from a folder of its own.
import t from 'tap';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { invocation } from '../src/cli/invocation.js';
import { CLI, ROOT, runCli, tempDir } from './helpers.js';

const MEMORY = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');

t.test('how this run was started, for the shell it came from and for a configuration', async (t) => {
  const node = process.execPath;
  t.same(invocation([node, '/work/app/dist/cli/cli.js'], { npm_command: 'exec' }, '/work/app'), {
    shell: 'node dist/cli/cli.js',
    absolute: 'node /work/app/dist/cli/cli.js',
  });
  t.same(invocation([node, '/opt/tool/dist/cli/cli.js'], {}, '/home/me'), {
    shell: 'node /opt/tool/dist/cli/cli.js',
    absolute: 'node /opt/tool/dist/cli/cli.js',
  });
  t.equal(invocation([node, '/usr/local/bin/mcp-pd-check'], { PATH: '/usr/bin:/usr/local/bin' }).shell, 'mcp-pd-check');
  t.equal(
    invocation([node, '/p/node_modules/.bin/mcp-pd-check'], { PATH: '/usr/bin' }).shell,
    'npx mcp-pd-check',
    "a project's own install: npx",
  );
  // For a client's configuration, npx would ask the registry from the client's folder: the installed file instead.
  const project = tempDir();
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(CLI, join(project, 'node_modules', '.bin', 'mcp-pd-check'));
  t.same(invocation([node, join(project, 'node_modules', '.bin', 'mcp-pd-check')], { PATH: '/usr/bin' }, project), {
    shell: 'npx mcp-pd-check',
    absolute: `node ${CLI}`,
  });
  t.equal(
    invocation([node, '/cache/_npx/1/node_modules/.bin/mcp-pd-check'], {
      PATH: '/cache/_npx/1/node_modules/.bin:/usr/bin',
    }).shell,
    'npx mcp-pd-check',
    'through npx: its bin is on PATH for this run only',
  );
});

t.test('a fleet names a folder per server; init tells a client absolute paths', async (t) => {
  const dir = tempDir();
  const config = join(dir, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        'notes one': { command: 'node', args: [MEMORY], env: { MEMORY_FILE_PATH: join(dir, 'a.jsonl') } },
        notes2: { command: 'node', args: [MEMORY], env: { MEMORY_FILE_PATH: join(dir, 'b.jsonl') } },
      },
    }),
  );
  const fleet = await runCli(['--server-config', config, '--explore', '0', '--protocol', '2025-11-25']);
  t.equal(fleet.code, 1, fleet.stderr);
  t.match(fleet.stdout, /\n {2}node dist\/cli\/cli\.js init --out pd-notes-one /, 'the first server: its folder');
  t.match(fleet.stdout, /\n {2}node dist\/cli\/cli\.js init --out pd-notes2 /, 'the second: another');

  const out = join(dir, 'pd');
  const init = await runCli(['init', '--out', 'pd', '--', 'node', MEMORY], {
    cwd: dir,
    env: { MEMORY_FILE_PATH: join(dir, 'c.jsonl') },
  });
  t.equal(init.code, 0, init.stderr);
  t.match(
    init.stdout,
    new RegExp(
      `put 'node ${CLI.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} serve --descriptions ${out.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} --'`,
    ),
    "step 2, for the client's configuration: the checker and the folder by absolute paths",
  );
  t.match(init.stdout, /'node \S+cli\.js lint pd' counts what is left/, 'step 1, for this shell: as it was run here');
});
