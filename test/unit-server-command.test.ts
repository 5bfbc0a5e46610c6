// The server command and what it says, in-process: words or one string split like a shell, a command
// that starts a container per session, and the stderr line that tells why a server failed.
import t from 'tap';
import { parseEnv } from '../src/cli/target-args.js';
import { commandFrom } from '../src/library/server-target.js';
import { telling } from '../src/transport/server-words.js';

t.test('the server command: words, or one string split like a shell', async (t) => {
  t.same(commandFrom(['node', 'a b.js'], undefined, {}), {
    command: 'node',
    args: ['a b.js'],
    cwd: undefined,
    env: {},
  });
  t.same(commandFrom(['node "my server.js" --x=1'], '/tmp', { A: '1' }).args, ['my server.js', '--x=1']);
  t.throws(() => commandFrom(['a | b'], undefined, {}), /shell syntax/);
  t.throws(() => commandFrom([''], undefined, {}), /no server to check/);
  t.same(parseEnv(['A=1', 'B=x=y']), { A: '1', B: 'x=y' });
  t.throws(() => parseEnv(['=1']), /KEY=VALUE/);
});

t.test(
  "the telling stderr line: what is missing first (npm's 404), never npm's pointer to its log; else the last error; else the last line",
  async (t) => {
    const npm = [
      'npm error code E404',
      'npm error 404 Not Found - GET https://registry.npmjs.org/@nope%2fpkg',
      'npm error 404',
      "npm error 404  The requested resource '@nope/pkg@1.0.0' could not be found or you do not have permission to access it.",
      'npm error 404',
      'npm error 404 Note that you can also install from a',
      'npm error 404 tarball, folder, http url, or git url.',
      'npm error A complete log of this run can be found in: /root/.npm/_logs/x-debug-0.log',
    ];
    t.match(telling(npm), /could not be found/);
    t.equal(
      telling(['Error: listen EADDRINUSE', 'Node.js v20.19.0']),
      'Error: listen EADDRINUSE',
      'a crash: its error, not the version banner',
    );
    t.equal(
      telling(['config file not found, using defaults', 'Error: boom']),
      'Error: boom',
      'a warning that something is missing is no error',
    );
    // Node's own crash output, as it prints it: the error's line, not a stack frame or the banner.
    const crash = (error: string) => [
      'file:///srv/server.mjs:1',
      'throw new TypeError("boom");',
      '      ^',
      '',
      error,
      '    at file:///srv/handleError.js:1:7',
      '    at ModuleJob.run (node:internal/modules/esm/module_job:325:25)',
      '',
      'Node.js v20.20.2',
    ];
    t.equal(telling(crash('TypeError: boom')), 'TypeError: boom', 'a thrown TypeError');
    t.equal(telling(crash("SyntaxError: Unexpected token '='")), "SyntaxError: Unexpected token '='");
    t.equal(telling(['Traceback (most recent call last):', '  File "s.py", line 1', "KeyError: 'x'"]), "KeyError: 'x'");
    t.equal(telling(['starting', 'ready']), 'ready');
    t.equal(telling([]), undefined);
  },
);

t.test(
  'a command that starts a container per session: a runtime and run as its first word that is no option',
  async (t) => {
    const { startsContainer } = await import('../src/transport/container-command.js');
    t.ok(startsContainer('docker', ['run', '-i', '--rm', 'mcp/github']));
    t.ok(startsContainer('/usr/bin/podman', ['run', '-i', 'image']));
    t.ok(startsContainer('docker', ['--context', 'ci', 'run', '-i', 'image']), "a global option's value is skipped");
    t.ok(startsContainer('podman', ['--connection', 'remote', 'run', 'image']));
    t.ok(startsContainer('docker', ['--context=ci', 'run', '-i', 'image']));
    t.ok(startsContainer('nerdctl', ['run', 'image']));
    t.notOk(
      startsContainer('docker', ['exec', '-i', 'running', 'server']),
      'exec joins a running container: none is started',
    );
    t.notOk(startsContainer('node', ['run.js']));
    t.notOk(startsContainer('npx', ['-y', 'docker', 'run']));
  },
);
