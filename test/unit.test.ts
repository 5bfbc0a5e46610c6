import t from 'tap';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { parseEnv } from '../src/cli/target-args.js';
import { commandFrom } from '../src/library/server-target.js';
import type { Discovery } from '../src/run/discovery.js';
import { classifyCall } from '../src/protocol/calls.js';
import { ToolFacts } from '../src/run/tools.js';
import { findSignalledError, invalidErrorCode } from '../src/protocol/errors.js';
import { descriptionsUri, isToolDescriptionsUri, requestedTools, sameUri } from '../src/protocol/uri.js';
import { PROTOCOL_VERSION } from '../src/transport/session-opening.js';
import type { Exchange } from '../src/transport/types.js';
import { telling } from '../src/transport/server-words.js';
import { formatNumber, sanitizeLine } from '../src/util/text.js';
import { words } from '../src/util/words.js';
import { compileSchema } from '../src/util/schema.js';
import { countTokensOf } from '../src/util/tokens.js';
import { ROOT } from './helpers.js';

function exchange(response: Record<string, unknown>): Exchange {
  return {
    session: 's1',
    method: 'tools/call',
    request: { jsonrpc: '2.0', id: 1, method: 'tools/call' },
    response: { jsonrpc: '2.0', id: 1, ...response },
    durationMs: 1,
  };
}

t.test('the checker asks for the SDK’s latest protocol version', async (t) => {
  t.equal(PROTOCOL_VERSION, LATEST_PROTOCOL_VERSION);
});

t.test('tool_descriptions URIs', async (t) => {
  t.ok(isToolDescriptionsUri('resource:///tool_descriptions'));
  t.ok(isToolDescriptionsUri('myserver://docs/tool_descriptions?x=1'));
  t.ok(isToolDescriptionsUri('pd://tool_descriptions'));
  t.notOk(isToolDescriptionsUri('resource:///tool_descriptions_v2'));
  t.notOk(isToolDescriptionsUri('resource:///descriptions'));
  t.equal(descriptionsUri('resource:///tool_descriptions', ['a', 'b.c']), 'resource:///tool_descriptions?tools=a,b.c');
  t.equal(descriptionsUri('x://h/tool_descriptions?v=2', ['a b']), 'x://h/tool_descriptions?v=2&tools=a%20b');
  t.same(requestedTools('resource:///tool_descriptions?tools=a,%20b'), ['a', 'b']);
  t.equal(requestedTools('resource:///tool_descriptions'), undefined);
  t.ok(
    sameUri('resource:///tool_descriptions?tools=get%5Fnote', 'resource:///tool_descriptions?tools=get_note'),
    'percent-encoding aside',
  );
  t.notOk(
    sameUri('resource:///tool_descriptions', 'resource:///tool_descriptions?tools=get_note'),
    'the bare URI is not the fetch URI',
  );
  t.notOk(sameUri('resource:///tool_descriptions?tools=a', 'resource:///tool_descriptions?tools=b'));
});

t.test('error codes are found in every accepted form, and the form is named', async (t) => {
  const code = 'TOOL_DESCRIPTION_REQUIRED';
  const payload = { code, message: 'm', resource_uri: 'u' };
  const forms: Array<[Record<string, unknown>, string, boolean]> = [
    [{ error: { code: -32001, message: 'x', data: payload } }, 'JSON-RPC error data.code', true],
    [{ error: { code: -32001, message: 'x', data: { error: payload } } }, 'JSON-RPC error data.error.code', true],
    [
      { result: { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: payload }) }] } },
      'JSON text in a successful result',
      true,
    ],
    [{ result: { content: [], structuredContent: { error: payload } } }, 'structuredContent of a tool result', true],
    [{ error: { code: -32603, message: `${code}: fetch first` } }, 'only in an error message text', false],
  ];
  for (const [response, form, accepted] of forms) {
    const found = findSignalledError(exchange(response), code);
    t.equal(found?.form, form);
    t.equal(found?.accepted, accepted);
  }
  t.equal(findSignalledError(exchange({ result: { content: [{ type: 'text', text: 'ok' }] } }), code), undefined);
  t.equal(
    findSignalledError(
      exchange({ result: { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: payload }) }] } }),
      code,
    )?.isError,
    true,
  );
});

t.test('a string JSON-RPC error code is invalid JSON-RPC', async (t) => {
  t.match(
    invalidErrorCode(exchange({ error: { code: 'TOOL_DESCRIPTION_REQUIRED', message: 'x' } })),
    /requires an integer/,
  );
  t.equal(invalidErrorCode(exchange({ error: { code: -32602, message: 'x' } })), undefined);
  t.equal(invalidErrorCode(exchange({ result: {} })), undefined);
});

t.test('calls are classified as refused, authorized or unanswered', async (t) => {
  const refusal = {
    result: {
      isError: true,
      content: [{ type: 'text', text: JSON.stringify({ error: { code: 'TOOL_DESCRIPTION_REQUIRED' } }) }],
    },
  };
  t.equal(classifyCall(exchange(refusal)).kind, 'refused');
  t.equal(
    classifyCall(exchange({ result: { isError: true, content: [{ type: 'text', text: 'bad arguments' }] } })).kind,
    'authorized',
    'a validation error is an authorized call',
  );
  t.equal(
    classifyCall({ ...exchange({}), response: undefined, noResponse: 'timeout', note: 'no response within 5 ms' }).kind,
    'no-response',
  );
});

t.test('--safe-calls keeps only tools marked read-only; call arguments come from the first example', async (t) => {
  const discovery = {
    toolNames: ['read_a', 'write_b', 'read_c'],
    tools: [
      { name: 'read_a', annotations: { readOnlyHint: true } },
      { name: 'write_b', annotations: { readOnlyHint: false } },
      { name: 'read_c', dashdash: { operationType: 'read' } },
    ],
  } as unknown as Discovery;
  const full = new Map([['write_b', { examples: [{ input: { x: 1 } }] }]]);
  const tools = new ToolFacts(discovery, full, { safeCalls: false, safeTools: [] });
  t.same(new ToolFacts(discovery, full, { safeCalls: true, safeTools: [] }).callable(), ['read_a', 'read_c']);
  t.same(new ToolFacts(discovery, full, { safeCalls: true, safeTools: [] }).barredBySafeCalls('write_b'), true);
  t.same(tools.callable(), ['read_a', 'write_b', 'read_c']);
  t.same(tools.barredBySafeCalls('write_b'), false);
  t.same(tools.exampleArguments('write_b'), { x: 1 });
  t.same(tools.exampleArguments('read_a'), {});
});

t.test('untrusted text is made inert for the terminal', async (t) => {
  t.equal(sanitizeLine('a\u001b[31mred\u001b[0m'), 'a\\x1b[31mred\\x1b[0m');
  t.equal(
    sanitizeLine('line1\n::error::forged'),
    'line1 : :error: :forged',
    'a workflow command is broken, not only kept off the line start',
  );
  t.equal(sanitizeLine('abc\u202eevil'), 'abc\\u202eevil');
});

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

t.test('input schemas compile in their own dialect; broken ones are explained', async (t) => {
  t.equal(compileSchema({ type: 'object' }).dialect, '2020-12');
  t.equal(compileSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }).dialect, 'draft-07');
  t.match(compileSchema({ type: 'objekt' }).problem, /must be equal to one of the allowed values|schema is invalid/);
  t.match(compileSchema(null).problem, /must be an object, got null/);
  const { validate } = compileSchema({ $id: 'same', type: 'object', required: ['a'] });
  t.notOk(validate!({}));
  t.ok(compileSchema({ $id: 'same', type: 'object' }).validate, 'a reused $id does not clash');
});

t.test('patterns from outside run on RE2: right answers, linear time, unsupported syntax named', async (t) => {
  const { compileSchema, quickValidate, unappliedPatterns } = await import('../src/util/schema.js');
  const { safeRegExp, isUnsupportedPattern } = await import('../src/util/safe-regexp.js');
  const evil = `${'a'.repeat(5000)}!`;
  const started = performance.now();
  t.equal(safeRegExp('^(a+)+$').test(evil), false, 'the catastrophic pattern answers (and says no)');
  t.equal(safeRegExp('^(a+)+$').test('aaaa'), true);
  t.ok(performance.now() - started < 5000, 'without backtracking (a hang guard, not a timing test)');
  t.equal(safeRegExp('^\\u00e9$').test('é'), true, 'JavaScript escapes are translated');
  t.ok(isUnsupportedPattern('(?=x)'), 'lookahead has no linear-time form');
  t.notOk(isUnsupportedPattern('^note-[0-9]{1,9}$'));

  // Patterns that cannot backtrack much run natively (no RE2 to load); the rest, and long values, on RE2.
  const { backtracksLittle } = await import('../src/util/safe-regexp.js');
  for (const safe of ['^note-[0-9]{1,9}$', '^[a-z]+$', '^\\d{4}-\\d{2}-\\d{2}$', 'abc', '^[\\w.-]{1,64}@x\\.org$'])
    t.ok(backtracksLittle(safe), `${safe} backtracks little`);
  for (const risky of ['^(a+)+$', '^a*a*$', '^\\d+\\d+x$', 'a|b', '(x)\\1', '(?=x)', '^\\p{L}+$', '[a]+[b]?'])
    t.notOk(backtracksLittle(risky), `${risky} goes to RE2`);
  const evilOneQuantifier = `${'a'.repeat(200_000)}!`;
  const long = performance.now();
  t.equal(safeRegExp('a*b').test(evilOneQuantifier), false, 'a long value runs on RE2 even for a native pattern');
  t.ok(performance.now() - long < 5000, 'in linear time (a hang guard, not a timing test)');
  t.equal(safeRegExp('^note-[0-9]{1,9}$').test('note-12'), true);
  t.equal(safeRegExp('^note-[0-9]{1,9}$').test('note-1234567890'), false);
  t.equal(safeRegExp('^[a-z]+$').test('ABC'), false);

  // ajv keys compiled patterns by their text: two patterns must not share one engine object.
  const two = compileSchema({
    type: 'object',
    properties: { a: { type: 'string', pattern: '^a$' }, b: { type: 'string', pattern: '^b$' } },
  });
  t.equal(two.validate!({ a: 'a', b: 'b' }), true);
  t.equal(two.validate!({ a: 'b', b: 'a' }), false);
  t.same(quickValidate({ type: 'object', properties: { x: { type: 'string', pattern: '^(a+)+$' } } }, { x: evil }), [
    '/x: must match pattern "^(a+)+$"',
  ]);
  t.same(
    unappliedPatterns({
      properties: { a: { pattern: '(a)\\1' }, b: { pattern: '^ok$' } },
      patternProperties: { '^(?!x)': {} },
    }).sort(),
    ['(a)\\1', '^(?!x)'].sort(),
  );
});

t.test('numbers are written as en-US writes them, without ICU', async (t) => {
  for (const n of [0, 7, 999, 1000, 12345, 1234567, -1234, -999, 123456789012, 1e20, 1e21, 2.5, 0.1]) {
    t.equal(formatNumber(n), Number.isInteger(n) ? n.toLocaleString('en-US') : String(n), String(n));
  }
});

t.test("ASCII words are ICU's word-like segments, without the segmenter", async (t) => {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
  const icu = (text: string) => [...segmenter.segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);
  // Random strings over the characters the word rules treat apart, from a fixed seed.
  const alphabet = 'aZ09_ .,;:\'"-/()!?\n\t@#$%&*+=<>[]{}|\\`~^';
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const texts = ['get_note returns a note by id.', "Don't use e.g. U.S.A or 1,000.50; a:b __ _ 3'4 x.y.z", ''];
  for (let i = 0; i < 20_000; i++)
    texts.push(
      Array.from({ length: 1 + Math.floor(next() * 24) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(
        '',
      ),
    );
  const differ = texts.filter((text) => JSON.stringify(words(text)) !== JSON.stringify(icu(text)));
  t.same(differ.slice(0, 5), [], `${differ.length} of ${texts.length} texts split otherwise`);
  t.same(words('one two three four', 2), ['one', 'two'], 'at most as many as asked');
  t.same(words('日本語のテキスト'), icu('日本語のテキスト'), 'other text goes to the segmenter');
});

t.test('the side thread counts tokens as the calling thread does, and keeps no process alive', async (t) => {
  const texts = [
    'Lists notes.',
    JSON.stringify({ name: 'get_note', description: 'Gets one note by its id — ノートを読む' }),
    '',
    'word '.repeat(2000),
    '😀 emoji, 中文, Ελληνικά',
  ];
  const here = await countTokensOf(texts);
  const tokens = pathToFileURL(join(ROOT, 'dist', 'src', 'util', 'tokens.js')).href;
  // In a process of its own (the thread is the module's): it must end by itself once it has counted.
  const side = pathToFileURL(join(ROOT, 'dist', 'src', 'util', 'side-thread.js')).href;
  const script = `import { countTokensOf, preloadTokenizer } from ${JSON.stringify(tokens)};
import { inSideThread } from ${JSON.stringify(side)};
await preloadTokenizer(true);
console.log(JSON.stringify({ inThread: inSideThread(), counts: await countTokensOf(${JSON.stringify(texts)}) }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  t.equal(run.status, 0, `it exits by itself, having counted (${run.signal ?? run.stderr.slice(-300)})`);
  const out = JSON.parse(run.stdout) as { inThread: boolean; counts: number[] };
  t.ok(out.inThread, 'the counts came from the thread');
  t.same(out.counts, here, 'the same counts as on the calling thread');
  const idle = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { preloadTokenizer } from ${JSON.stringify(tokens)}; await preloadTokenizer(true);`,
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  t.equal(
    idle.status,
    0,
    `a process that started the thread and counted nothing exits by itself too (${idle.signal ?? idle.stderr.slice(-300)})`,
  );
});

t.test('token counts kept from earlier calls (the cache) are the counts the tokenizer makes', async (t) => {
  const { countTokensHere } = await import('../src/util/tokens.js');
  const texts = ['Counted once: a text no other test counts (cache).', 'Twice the same.', 'Twice the same.', ''];
  const first = await countTokensOf(texts);
  t.same(first, await countTokensHere(texts), 'as the tokenizer counts them, duplicates included');
  t.equal(first[1], first[2]);
  // Asked again, mixed with a new text: the kept counts come back with the new one in its place.
  const again = await countTokensOf([texts[0], 'A new one.', texts[1]]);
  t.same(again, [first[0], (await countTokensHere(['A new one.']))[0], first[1]]);
});

t.test(
  'arguments a schema surely refuses: a missing required property, a wrong type, or one more property where none is allowed',
  async (t) => {
    const { invalidArguments } = await import('../src/protocol/calls.js');
    t.same(invalidArguments({ type: 'object', required: ['id'] })?.args, {});
    t.same(invalidArguments({ type: 'object', properties: { n: { type: 'number' } } })?.args, { n: 'not a number' });
    const closed = invalidArguments({ type: 'object', properties: { text: {} }, additionalProperties: false });
    t.same(
      closed?.args,
      { pd_check_unexpected_argument: true },
      'additionalProperties: false refuses one more property',
    );
    t.match(closed?.violation, /allows no other \(additionalProperties: false\)/);
    t.equal(
      invalidArguments({ type: 'object', additionalProperties: true }),
      undefined,
      'a schema that takes anything refuses nothing',
    );
  },
);

t.test('over several eras, a tool is "not called" only when no era called it', async (t) => {
  const { mergeEraReports } = await import('../src/run/eras.js');
  const verdict = (notCalled: string[]) => ({
    implements: 'yes' as const,
    summary: '',
    failing: [],
    notTestable: [],
    notCalled: notCalled.map((tool) => ({ tool, why: 'a reason', harm: true })),
  });
  const report = (era: '2025-11-25' | '2026-07-28', notCalled: string[]) => ({
    era,
    report: {
      tool: { name: 'mcp-pd-check', version: '0' },
      target: { kind: 'stdio' as const },
      startedAt: '',
      durationMs: 0,
      summary: { passed: 0, failed: 0, warnings: 0, skipped: 0, errors: 0 },
      results: [],
      verdict: verdict(notCalled),
    },
  });
  const merged = mergeEraReports([report('2025-11-25', ['a', 'b']), report('2026-07-28', ['b'])], [], 'all', 0);
  t.same(
    merged.verdict?.notCalled?.map((n) => n.tool),
    ['b'],
    "'a' was called in 2026-07-28: not said to be not called",
  );
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
