import t from 'tap';
import { createServer } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { Validator } from '@cfworker/json-schema';
import { reportSchemaErrors, ROOT, startHttp, tempDir } from './helpers.js';
import { assertVerdict, BOUNDS, HOSTILE, runBounded, SOURCES, STALLS, survivors } from './support/hostile.js';

function findingsOf(report: CheckReport | undefined, id: string): string[] {
  return report?.results.find((r) => r.id === id)?.findings.map((f) => f.message) ?? [];
}

/** What a check said: its messages and the notes of its exchanges (why a request got no answer). */
function saidBy(report: CheckReport | undefined, id: string): string {
  const result = report?.results.find((r) => r.id === id);
  return (result?.findings ?? [])
    .flatMap((f) => [f.message, ...(f.transcript ?? []).map((ex) => ex.note ?? '')])
    .join('\n');
}

interface Case {
  code: 0 | 1 | 3;
  check?: string;
  status?: 'fail' | 'pass';
  proves?: RegExp;
  args?: string[];
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
  const covered = [
    ...Object.keys(STDIO),
    'hostile-text',
    'remote-ref',
    'http-500',
    'http-500-to-discover',
    'http-404-session',
    'http-html',
    'http-exits-mid-run',
    'http-silent',
    'http-keep-alive',
    'stalls-after-probe',
    'slow-later-starts',
    // test/stability.test.ts
    'current-session-race',
    'proto-keys-everywhere',
    'http-endless-streams',
    // test/leaks.test.ts
    'env-echo',
    'http-echo-headers',
    'http-redirects',
    'sigterm-proof-helpers',
  ];
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
    t.same(survivors(fixture), [], 'no process of this fixture survives the run');
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
  t.same(survivors('stalls-after-one'), []);
});

t.test(
  '--max-duration ends the run on time: requests in flight are abandoned, and the report says what was cut',
  async (t) => {
    // Every request may wait a minute: only the run's deadline can end this run early.
    const run = await runBounded([
      '--format',
      'json',
      '--timeout',
      '60000',
      '--max-duration',
      '2',
      '--',
      'node',
      join(HOSTILE, 'stalls-after-probe.js'),
    ]);
    const report = assertVerdict(t, run, 1);
    t.ok(
      run.ms < 30_000,
      `it ended with the deadline, not with its requests (${Math.round(run.ms)} ms; a hang guard, not a timing test)`,
    );
    const cut =
      report?.results
        .filter((r) => r.findings.some((f) => f.code === 'not-run' || f.code === 'run-time-up'))
        .map((r) => r.id) ?? [];
    t.ok(cut.includes('pd-description-required'), `the checks the deadline cut say so (${cut.join(', ')})`);
    // What the checker did at the deadline (closing sessions) is no finding about the server.
    const afterCut =
      report?.results.flatMap((r) => r.findings).filter((f) => /SIGTERM|session was closed/.test(JSON.stringify(f))) ??
      [];
    t.same(
      afterCut.map((f) => f.message),
      [],
      'no finding blames the server for being stopped',
    );
    t.notOk(report?.verdict?.failing.includes('pd-description-required'), 'a criterion the deadline cut does not fail');
    t.match(
      report?.verdict?.summary,
      /Not proven \(no failure\): .*not run: the run reached --max-duration \(2 s\)|Stopped: the run reached --max-duration/,
      'the verdict says the deadline cut the rest',
    );
    t.same(survivors('stalls-after-probe'), []);
  },
);

t.test('a run the time cuts says it was cut, what did not run, and claims no failure it did not observe', async (t) => {
  // The cut must come after the server answered: on a loaded machine (test:busy beside a build) the
  // reference server took over 2 s to answer, and the run said so (exit 3, not what this is about).
  // Then the limit doubles: a machine that slow does not finish the whole run in it either.
  let seconds = 2;
  let run = await runBounded([
    '--max-duration',
    String(seconds),
    '--',
    'node',
    join(ROOT, 'dist', 'reference-server', 'bundle.js'),
  ]);
  while (
    run.code === 3 &&
    /did not finish answering the first session's requests within the run's time limit/.test(run.stderr) &&
    seconds < 16
  ) {
    seconds *= 2;
    run = await runBounded([
      '--max-duration',
      String(seconds),
      '--',
      'node',
      join(ROOT, 'dist', 'reference-server', 'bundle.js'),
    ]);
  }
  t.equal(run.code, 1, 'exit 1: what the time cut is no pass');
  // (the second era starts once the first has made its calls before any fetch: on a fast machine, before the cut)
  if (!/protocol 2025-11-25 and 2026-07-28/.test(run.stdout))
    t.match(
      run.stdout,
      new RegExp(
        `; protocol 2026-07-28 not checked: the run reached --max-duration \\(${seconds} s\\) before this era`,
      ),
      'an era not checked is said',
    );
  t.notMatch(run.stdout, /fails pd-descriptions-tool/, 'the tool form is not said to fail a check that never ran');
  t.match(
    run.stdout,
    /\d+ cut by --max-duration \(not run or stopped: no verdict on them, and no pass either: exit 1\)/,
    'the last line counts what the time cut',
  );
  t.match(run.stdout, / 0 failed/, 'and no failure');
});

t.test(
  "a URL that never answers: one connection attempt within --timeout, not a process's start-up allowance",
  async (t) => {
    for (const fixture of ['http-silent', 'http-keep-alive']) {
      const server = await startHttp(join(HOSTILE, `${fixture}.js`));
      t.teardown(() => server.stop());
      const run = await runBounded(['--timeout', '2000', '--url', server.url]);
      t.equal(run.code, 3, `${fixture}: exit 3`);
      t.match(
        run.stderr,
        /did not answer initialize within 2000 ms \(--timeout\)/,
        `${fixture}: says the time it really waited, and which option set it`,
      );
      // The old start-up allowance was 30 s, spent once per transport: a bound only that would exceed.
      t.ok(run.ms < 30_000, `${fixture}: ended after ${Math.round(run.ms)} ms (a hang guard, not a timing test)`);
    }
  },
);

const HTTP: Record<string, Case> = {
  'http-500': { code: 3, proves: /HTTP 500 Internal Server Error: Internal Server Error: \\x1b\[31mboom/ },
  'http-404-session': {
    code: 1,
    check: 'pd-minimal-descriptions',
    proves: /HTTP 404 Not Found \(the server no longer knows this session\)/,
  },
  'http-html': { code: 3, proves: /HTTP 200 with text\/html instead of JSON-RPC: <!doctype html>/ },
  // Gone mid-run: no verdict, and the connection refused is said.
  'http-exits-mid-run': {
    code: 3,
    proves:
      /the server went away during the run \((session \w+|a session started ahead)(, after [^)]+)?\), so no verdict is given: cannot connect to .*connection refused/,
  },
};

t.test(
  'a 2025-11-25 server that answers server/discover with HTTP 500: that era is absent, said in one line, and the other is checked',
  async (t) => {
    const server = await startHttp(join(HOSTILE, 'http-500-to-discover.js'));
    t.teardown(() => server.stop());
    const run = await runBounded(['--format', 'json', ...BOUNDS, '--url', server.url]);
    t.notOk(run.code === 3, `a verdict, not exit 3 (${run.stderr.trim()})`);
    const report = JSON.parse(run.stdout) as CheckReport;
    t.same(
      report.eras?.filter((e) => e.checked).map((e) => e.era),
      ['2025-11-25'],
      '2025-11-25 is checked',
    );
    t.match(
      report.eras?.find((e) => e.era === '2026-07-28')?.why,
      /does not speak it: .*HTTP 500 to server\/discover/,
      '2026-07-28 is said to be absent, with the 500',
    );
    const text = await runBounded([...BOUNDS, '--url', server.url]);
    t.match(
      text.stdout,
      /\nserver: [^\n]*; protocol 2026-07-28 not checked: the server does not speak it: [^\n]*HTTP 500/,
      'in one line of the text report',
    );
  },
);

for (const [fixture, c] of Object.entries(HTTP)) {
  t.test(`${fixture}: a clear verdict over HTTP`, async (t) => {
    const server = await startHttp(join(HOSTILE, `${fixture}.js`));
    t.teardown(() => server.stop());
    const run = await runBounded(['--format', 'json', ...BOUNDS, '--url', server.url]);
    const report = assertVerdict(t, run, c.code);
    if (c.check) t.match(saidBy(report, c.check), c.proves);
    else t.match(run.stderr, c.proves);
  });
}

t.test(
  'a server whose later starts are too slow: what they would prove is not proven, and nothing fails for it',
  async (t) => {
    const marker = join(tempDir(), 'started');
    // The first start gets 5 s (a busy machine starts node in 1–2 s); the later ones take 20.
    // One era: the probe of a second would be a later start too.
    const run = await runBounded(
      [
        '--format',
        'json',
        '--protocol',
        '2025-11-25',
        '--startup-timeout',
        '5000',
        '--env',
        'MCP_PD_SLOW_MARKER',
        '--',
        'node',
        join(HOSTILE, 'slow-later-starts.js'),
      ],
      { MCP_PD_SLOW_MARKER: marker },
    );
    const report = assertVerdict(t, run, 1);
    const slow = report?.results.filter((r) => r.findings.some((f) => f.code === 'slow-start')) ?? [];
    t.ok(
      slow.length > 0,
      `the checks that needed a later session say it was slow to start (${slow.map((r) => r.id).join(', ')})`,
    );
    for (const r of slow) t.equal(r.status, 'skip', `${r.id}: not proven, never failed`);
    t.same(report?.verdict?.failingCriteria, [], 'no criterion fails for a slow start');
    t.equal(report?.verdict?.implements, 'partly', 'the verdict names them as not proven');
    const said = report?.results.flatMap((r) => r.findings).find((f) => f.code === 'slow-start');
    t.match(
      said?.message,
      /did not answer initialize within 5000 ms \(--startup-timeout\)/,
      'with the limit it missed',
    );
    t.match(said?.hint, /--startup-timeout/, 'and the option that raises it');
    t.notMatch(JSON.stringify(report), /must accept new sessions/, 'never a fix about sessions');
  },
);

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
