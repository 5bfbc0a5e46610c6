// Hostile servers over stdio: each fixture gets a clear verdict within bounds and leaves no process
// behind; keys and patterns meant to choke the checker are plain data, a remote $ref is never fetched,
// --max-duration bounds a server that stalls; and every fixture in fixtures/hostile is run by a test.
import t from 'tap';
import { createServer } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { assertVerdict, BOUNDS, HOSTILE, runBounded, SOURCES, STALLS, survivors } from './support/hostile.js';
import { type Case, HOSTILE_SERVERS_BY_TEST, saidBy } from './support/hostile-cases.js';

function findingsOf(report: CheckReport | undefined, id: string): string[] {
  return report?.results.find((r) => r.id === id)?.findings.map((f) => f.message) ?? [];
}

/** Each stdio fixture: its verdict and the finding (or reason) that proves it was understood. */
const STDIO: Record<string, Case> = {
  'exits-at-once': {
    code: 3,
    proves:
      /exited with code 3; it said on stderr: "fatal: \\x1b\[31mcannot open database\\x1b\[0m \/var\/lib\/notes.db \\u202eevil"/,
  },
  // A request limit far shorter than the start-up: the exit is still what is reported.
  'exits-after-start': {
    code: 3,
    proves:
      /no answer to initialize: the server process exited with code 3; it said on stderr: "fatal: cannot open database \/var\/lib\/notes.db: permission denied"/,
    args: ['--timeout', '1000'],
  },
  // Start-up is not a request: 8 s to answer initialize, and the run is a normal, full one.
  'slow-start': { code: 0 },
  // A server that dies mid-run gets no verdict: exit 3, with its last words.
  'exits-mid-run': {
    code: 3,
    proves:
      /went away during the run \(session probe, after resources\/list\), so no verdict is given: the server process exited with code 139; its last words on stderr: "Segmentation fault \(simulated\)"/,
  },
  'silent-initialize': {
    code: 3,
    proves: /did not answer initialize within 2000 ms \(--startup-timeout\)/,
    args: STALLS,
  },
  'stalls-after-one': {
    code: 1,
    check: 'pd-minimal-descriptions',
    proves:
      /no response within 1000 ms; the server process had been running for \d+\.\d s and wrote nothing on stderr meanwhile/,
    args: STALLS,
  },
  'non-json-stdout': { code: 1, check: 'mcp-wire-valid', proves: /not a JSON-RPC message: "Starting notes server/ },
  'floods-stderr': { code: 1, check: 'pd-resource-listed', proves: /Method not found/ },
  'huge-response': { code: 1, check: 'mcp-wire-valid', proves: /larger than the --max-response limit/ },
  // Its one tool takes any object and is not read-only: it is not called, so the string code shows in a read.
  'string-error-code': {
    code: 1,
    check: 'mcp-wire-valid',
    proves: /error\.code is "(TOOL_DESCRIPTION_REQUIRED|MISSING_TOOL_SELECTION)", not an integer/,
  },
  // Its replies come under ids no request had: once it has spoken, initialize gets the request limit.
  'wrong-ids': {
    code: 3,
    proves: /answered under an id that no request had: \{"jsonrpc":"2.0","id":"1-reply"/,
    args: STALLS,
  },
  'notification-storm': { code: 1, check: 'pd-resource-listed', proves: /Method not found/ },
  'ten-thousand-tools': { code: 1, check: 'mcp-tools-pagination', status: 'pass', proves: /10,000 tools in 1 page/ },
  'deep-nesting': { code: 1, check: 'mcp-wire-valid', proves: /nested deeper than 128 levels, which was cut/ },
  'proto-keys': { code: 1, check: 'pd-full-descriptions', proves: /Example 1 does not match the inputSchema/ },
  'catastrophic-regex': { code: 1, check: 'mcp-output-schema', proves: /must match pattern "\^\(a\+\)\+\$"/ },
  'grandchild-pipes': { code: 1, check: 'pd-resource-listed', proves: /Method not found/ },
};

t.test('every hostile fixture has a case here, and every case a fixture', async (t) => {
  const files = readdirSync(SOURCES)
    .filter((f) => f.endsWith('.ts') && !f.startsWith('raw-'))
    .map((f) => f.slice(0, -3));
  const covered = [...Object.keys(STDIO), ...Object.values(HOSTILE_SERVERS_BY_TEST).flat()];
  t.same(files.sort(), covered.sort());
  for (const f of files)
    t.match(readFileSync(join(SOURCES, `${f}.ts`), 'utf8'), /^\/\/ Hostile: /, `${f} says how it is hostile`);
});

for (const [fixture, c] of Object.entries(STDIO)) {
  t.test(`${fixture}: a clear verdict within bounds, nothing left running`, async (t) => {
    // A normal run gets the default settings: no bounds at all.
    const bounds = c.code === 0 ? [] : BOUNDS;
    const run = await runBounded([
      '--format',
      'json',
      ...bounds,
      ...(c.args ?? []),
      '--',
      'node',
      join(HOSTILE, `${fixture}.js`),
    ]);
    const report = assertVerdict(t, run, c.code);
    if (c.code === 0) {
      t.equal(report?.verdict?.implements, 'yes', 'a normal verdict');
      t.same(
        report?.results.filter((r) => r.status !== 'pass' && r.status !== 'skip').map((r) => r.id),
        [],
        'every check passes',
      );
    } else if (c.check) {
      const status = c.status ?? 'fail';
      t.equal(report?.results.find((r) => r.id === c.check)?.status, status, `${c.check}: ${status}`);
      t.match(saidBy(report, c.check), c.proves!, 'and says why');
    } else {
      t.match(run.stderr, c.proves!, 'the reason names the cause');
    }
    t.same(survivors(fixture, run), [], 'no process of this fixture survives the run');
  });
}

t.test('keys and ids that String() and prototypes choke on are plain data', async (t) => {
  const run = await runBounded(['--format', 'json', ...BOUNDS, '--', 'node', join(HOSTILE, 'proto-keys.js')]);
  const report = assertVerdict(t, run, 1);
  t.match(
    saidBy(report, 'mcp-wire-valid'),
    /answered under an id that no request had: \{"jsonrpc":"2.0","id":\{"toString":null,"__proto__":\{"polluted":1\}\}/,
  );
  t.equal(
    report?.results.find((r) => r.id === 'pd-tools-parameter')?.status,
    'pass',
    'tools named __proto__, constructor and toString are fetched by name',
  );
  t.notOk(
    report?.results.some((r) => r.status === 'error'),
    'no check crashed',
  );
});

t.test('the catastrophic pattern is matched in linear time, in inputs and outputs', async (t) => {
  const run = await runBounded(['--format', 'json', ...BOUNDS, '--', 'node', join(HOSTILE, 'catastrophic-regex.js')]);
  const report = assertVerdict(t, run, 1);
  t.match(
    findingsOf(report, 'pd-full-descriptions').join('\n'),
    /Example 1 does not match the inputSchema: \/text: must match pattern/,
  );
  t.match(findingsOf(report, 'mcp-output-schema').join('\n'), /structuredContent of 'match' does not conform/);
  t.match(
    findingsOf(report, 'pd-full-descriptions').join('\n'),
    /the pattern "\^\(\?=\(a\+\)\+\$\)", which uses lookaround or backreferences; .*not checked against it/,
    'a pattern RE2 cannot run is said to be unapplied',
  );
});

t.test('a $ref to a remote schema is never fetched', async (t) => {
  const requests: string[] = [];
  const listener = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.end('{}');
  });
  await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
  t.teardown(() => new Promise<void>((done) => listener.close(() => done())));
  const url = `http://127.0.0.1:${(listener.address() as { port: number }).port}/schema.json`;
  const run = await runBounded(['--format', 'json', ...BOUNDS, '--', 'node', join(HOSTILE, 'remote-ref.js')], {
    HOSTILE_REF_URL: url,
  });
  const report = assertVerdict(t, run, 1);
  t.match(
    findingsOf(report, 'pd-full-descriptions').join('\n'),
    /refers to http:\/\/127\.0\.0\.1:\d+\/schema\.json, outside itself/,
    'the unresolved $ref is reported',
  );
  t.match(findingsOf(report, 'mcp-output-schema').join('\n'), /can't resolve reference/);
  t.same(requests, [], 'and nothing was requested from its URL');
});

t.test('--max-duration bounds a run against a server that stalls', async (t) => {
  const run = await runBounded([
    '--format',
    'json',
    '--timeout',
    '1500',
    '--sessions',
    '3',
    '--max-duration',
    '2',
    '--',
    'node',
    join(HOSTILE, 'stalls-after-one.js'),
  ]);
  t.notOk(run.killed);
  t.ok(run.code === 1 || run.code === 3, `exit 1 or 3 (got ${run.code})`);
  t.match(run.code === 3 ? run.stderr : run.stdout, /--max-duration \(2 s\)/, 'the report says the run was cut short');
  t.ok(
    run.ms < 60_000,
    `it ended after the limit, not after its requests (${Math.round(run.ms)} ms; a hang guard, not a timing test)`,
  );
  t.same(survivors('stalls-after-one', run), []);
});
