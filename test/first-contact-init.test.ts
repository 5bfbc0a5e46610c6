// First contact (issue 44), init: the config init writes must work as written — a server's
// environment read from the environment, never its value; a config from a saved tools/list shaped as
// a live init's, with serve warning of REVIEW: texts left — one test each, every one failing on the
// code before.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, REFERENCE, ROOT, runCli, tempDir } from './helpers.js';

t.test(
  'init --env: the config reads each variable from the environment (never its value), and the written config runs the server with it',
  async (t) => {
    const dir = tempDir();
    // A server that will not start without its variable (as servers needing an API key do).
    const needy = [
      'node',
      '-e',
      'if ((process.env.NOTES_TOKEN ?? "").length !== 12) process.exit(9); import(process.argv[1])',
      REFERENCE,
    ];
    const init = await runCli([
      'init',
      '--out',
      dir,
      '--env',
      'NOTES_TOKEN=s3cret-value',
      '--env',
      'TZ=UTC',
      '--env',
      `HOME=${dir}`,
      '--',
      ...needy,
    ]);
    t.equal(init.code, 0, init.stderr);
    t.match(
      init.stdout,
      /The server needs its environment: the config reads it from the environment where the check runs, never the value: \$NOTES_TOKEN \(--env NOTES_TOKEN\)/,
    );
    t.match(
      init.stdout,
      /Written into the config as given \(nothing secret in their names or values\): TZ, HOME\./,
      'the summary says which are written as given',
    );
    const configText = readFileSync(join(dir, 'mcp-pd-check.config.json'), 'utf8');
    t.notMatch(configText, /s3cret-value/, 'the value is not in the committed config');
    t.same(
      JSON.parse(configText).env,
      { NOTES_TOKEN: '${NOTES_TOKEN}', TZ: 'UTC', HOME: dir },
      'only the secret one is a ${VAR}: the others run the server as the user did',
    );
    const checked = await runCli(
      ['--config', join(dir, 'mcp-pd-check.config.json'), '--only', 'mcp-ping', '--format', 'json'],
      { env: { NOTES_TOKEN: 's3cret-value' } },
    );
    t.equal(checked.code, 0, `step 3 of init's Next works as written: ${checked.stderr}`);
    const unset = await runCli(['--config', join(dir, 'mcp-pd-check.config.json'), '--only', 'mcp-ping'], {
      env: { NOTES_TOKEN: undefined },
    });
    t.equal(unset.code, 2);
    t.match(unset.stderr, /reads \$NOTES_TOKEN for the server, which is not set in this environment/);
  },
);

t.test(
  'init --from writes the config a live init writes (serve in front, a placeholder command); serve warns of REVIEW: texts',
  async (t) => {
    const dir = tempDir();
    const list = join(dir, 'tools.json');
    writeFileSync(
      list,
      JSON.stringify({
        tools: [
          {
            name: 'lookup',
            description: 'Looks a thing up.',
            inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
          },
        ],
      }),
    );
    const init = await runCli(['init', '--out', join(dir, 'pd'), '--from', list]);
    t.equal(init.code, 0, init.stderr);
    const config = JSON.parse(readFileSync(join(dir, 'pd', 'mcp-pd-check.config.json'), 'utf8')) as {
      command: string[];
    };
    t.same(
      config.command.slice(0, 5),
      ['mcp-pd-check', 'serve', '--descriptions', '.', '--'],
      'the serve --descriptions shape',
    );
    t.match(config.command.slice(5).join(' '), /^node REVIEW: /, 'and the command to fill in');

    // serve with that folder (still unreviewed) in front of a server that lists the tool.
    const upstream = join(dir, 'upstream.mjs');
    writeFileSync(
      upstream,
      `import { McpServer } from ${JSON.stringify(join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'server', 'mcp.js'))};
import { StdioServerTransport } from ${JSON.stringify(join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'server', 'stdio.js'))};
const s = new McpServer({ name: 'u', version: '1' });
s.registerTool('lookup', { description: 'Looks a thing up.' }, () => ({ content: [{ type: 'text', text: 'x' }] }));
await s.connect(new StdioServerTransport());`,
    );
    const served = await runCli([
      '--only',
      'mcp-ping',
      '--',
      'node',
      CLI,
      'serve',
      '--descriptions',
      join(dir, 'pd'),
      '--',
      'node',
      upstream,
    ]);
    t.equal(served.code, 0, served.stderr);
    const serve = await runCli(['serve', '--descriptions', join(dir, 'pd'), '--', 'node', upstream], {});
    t.match(
      serve.stderr,
      /serve: warning: the descriptions of 'lookup' still hold REVIEW: placeholders/,
      'said when serve starts',
    );
  },
);
