// First contact (issue 44), on the command line: each case a new user met that gave a wrong step — a
// lint that reads nothing, a quoted command or a flag after it, options that contradict, a settings
// file, https:// to a plain-HTTP port, text clipped mid-word — one test each, every one failing on the
// code before.
import t from 'tap';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { REFERENCE, runCli, startHttp, tempDir } from './helpers.js';

t.test(
  'lint of a folder with no *.json reads nothing: one line, exit 2; every lint report says how many files it read',
  async (t) => {
    const dir = tempDir();
    mkdirSync(join(dir, 'empty'));
    const empty = await runCli(['lint', join(dir, 'empty')]);
    t.equal(empty.code, 2, 'a usage error, not a pass');
    t.match(empty.stderr, /the folder '.*empty' holds no \*\.json file/);
    t.equal(empty.stderr.trim().split('\n').length, 1, 'one line');
    t.equal(empty.stdout, '', 'and no report that could be read as a pass');

    mkdirSync(join(dir, 'tool_descriptions'));
    for (const name of ['a', 'b'])
      writeFileSync(
        join(dir, 'tool_descriptions', `${name}.json`),
        JSON.stringify({ name, description: `Tool ${name}.` }),
      );
    const two = await runCli(['lint', '--no-color', join(dir, 'tool_descriptions')]);
    t.match(
      two.stdout.split('\n')[0],
      /tool_descriptions \(lint, 2 files read\)$/,
      'the text report says how many files it read',
    );
    const json = JSON.parse(
      (await runCli(['lint', '--format', 'json', join(dir, 'tool_descriptions')])).stdout,
    ) as CheckReport;
    t.equal(json.target.files, 2, 'and so does the JSON');
    t.same(readdirSync(join(dir, 'tool_descriptions')).length, 2);
  },
);

t.test('a quoted server command is split wherever it stands; flags after the command get a hint', async (t) => {
  const quoted = await runCli(['--format', 'json', '--only', 'mcp-ping', `node ${REFERENCE}`, '--fetch-limit', '0']);
  t.equal(
    quoted.code,
    0,
    `"node server.js" --flag runs node with server.js and the flag: ${quoted.stderr.slice(0, 300)}`,
  );
  t.match(JSON.parse(quoted.stdout).target.command, /node .*bundle\.js --fetch-limit 0$/);

  const after = await runCli(['--only', 'mcp-ping', '--no-color', 'node', REFERENCE, '--timeout', '9000']);
  t.match(
    after.stderr,
    /note: --timeout after the server command goes to the server, not to the checker; put them before the command/,
    'the hint names the flag',
  );
  const separated = await runCli(['--only', 'mcp-ping', '--no-color', '--', 'node', REFERENCE, '--timeout', '9000']);
  t.notMatch(separated.stderr, /after the server command/, "after --, the flags are plainly the server's");
});

t.test(
  'options that contradict or do nothing alone are one line, exit 2, in the CLI and the library alike',
  async (t) => {
    for (const [args, said] of [
      [['--server', 'notes', '--', 'node', REFERENCE], /--server goes with --server-config FILE/],
      [['--jobs', '3', '--', 'node', REFERENCE], /--jobs goes with --server-config FILE/],
      [
        ['--safe-calls', '--allow-destructive', '--', 'node', REFERENCE],
        /--safe-calls and --allow-destructive cannot go together/,
      ],
    ] as const) {
      const run = await runCli([...args]);
      t.equal(run.code, 2, args.join(' '));
      t.match(run.stderr, said);
      t.equal(run.stderr.trim().split('\n').length <= 2, true, 'one line (and the pointer to --help)');
    }
    const { checkServer } = await import('../src/library/check-server.js');
    const { lint } = await import('../src/library/lint.js');
    const { InputError } = await import('../src/core/input-error.js');
    const command = ['node', REFERENCE];
    await t.rejects(
      checkServer({ command, timeoutMs: -1 }),
      new InputError('timeoutMs expects a whole number from 1 to 600000, got -1'),
    );
    await t.rejects(
      checkServer({ command, timeoutMs: 'abc' as unknown as number }),
      /timeoutMs expects a whole number/,
    );
    await t.rejects(checkServer({ command, sessions: 1 }), /sessions expects a whole number from 2 to 256, got 1/);
    await t.rejects(
      checkServer({ command, safeCalls: true, allowDestructive: true }),
      /safeCalls and allowDestructive cannot go together/,
    );
    await t.rejects(lint(['x'], { only: 'pd-' as unknown as string[] }), /only expects a list of strings/);
  },
);

t.test(
  'a settings file is JSONC; a syntax error says line and column; a misspelt setting gets a did-you-mean',
  async (t) => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'ok.json'),
      '{\n  // the reference server\n  "command": ["node", ' +
        JSON.stringify(REFERENCE) +
        '],\n  "only": ["mcp-ping"],\n}\n',
    );
    const ok = await runCli(['--config', join(dir, 'ok.json'), '--format', 'json']);
    t.equal(ok.code, 0, `comments and a trailing comma are fine: ${ok.stderr}`);
    writeFileSync(join(dir, 'broken.json'), '{\n  "only": ["mcp-ping"]\n  "failOn": "never"\n}\n');
    const broken = await runCli(['--config', join(dir, 'broken.json'), '--', 'node', REFERENCE]);
    t.equal(broken.code, 2);
    t.match(broken.stderr, /broken\.json is not valid JSON: line 3, column 3: a comma was expected/);
    writeFileSync(join(dir, 'typo.json'), '{ "comand": ["node", "x"] }');
    const typo = await runCli(['--config', join(dir, 'typo.json')]);
    t.equal(typo.code, 2);
    t.match(typo.stderr, /Unknown field 'comand' \(did you mean 'command'\?\)/);
  },
);

t.test(
  'https:// to a plain-HTTP port: one line in words, no OpenSSL trace, nothing "said on stderr" by an HTTP server',
  async (t) => {
    const server = await startHttp(REFERENCE);
    t.teardown(server.stop);
    const run = await runCli(['--url', server.url.replace('http:', 'https:')]);
    t.equal(run.code, 3);
    t.match(run.stderr, /does not answer TLS: is it plain HTTP\? \(try http:\/\/ instead of https:\/\/\)/);
    t.notMatch(run.stderr, /openssl|ssl3_get_record|said on stderr/i);
    t.equal(run.stderr.trim().split('\n').length, 1, 'one line');
  },
);

t.test('text is clipped between words, never inside one, when a space is near', async (t) => {
  const { clip } = await import('../src/util/text.js');
  t.equal(clip('the server did not answer initialize within the time', 30), 'the server did not answer…');
  t.equal(
    clip('averyveryverylongwordwithoutanyspaceinit', 12),
    'averyveryve…',
    'one long word is cut where it must be',
  );
  t.equal(clip('short', 30), 'short');
});

t.test("a passing lint's info lines of one kind fold into one (a count per tool); --verbose lists each", async (t) => {
  const dir = tempDir();
  const tools = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'].map((name) => ({
    name: `read_${name}`,
    description: `Reads the ${name} record by its id and returns its fields.`,
    inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'The record id.' } } },
    annotations: { readOnlyHint: true },
  }));
  const file = join(dir, 'tools-list.json');
  writeFileSync(file, JSON.stringify({ tools }, null, 2));
  const perTool = /Tool 'read_\w+': \d+ tokens in tools\/list/g;
  const plain = await runCli(['lint', '--no-color', file]);
  t.equal(plain.code, 0, plain.stdout);
  t.equal(plain.stdout.match(perTool)?.length, 1, 'one tool counted in full');
  t.match(plain.stdout, /\+ 7 more like it, in 'tools-list\.json' \(--verbose lists each\)/, 'the others folded');
  t.match(plain.stdout, /8 tools, \d+ tokens in all/, 'the total is still said');
  const verbose = await runCli(['lint', '--no-color', '--verbose', file]);
  t.equal(verbose.stdout.match(perTool)?.length, 8, '--verbose: every tool');
});
