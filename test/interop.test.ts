// Real servers from npm (devDependencies, started from node_modules, no network): the first run
// of nearly every user is against a server without progressive disclosure. Each gets a verdict,
// the expected status of every check, and — seen from the server's side through a spy relay —
// no tool that is not read-only is ever called unfetched.
import t, { type Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { CLI, DEFAULT_CHECKS, ROOT, reportSchemaErrors, runCli, tempDir } from './helpers.js';
import { snapshot } from './support/folder-snapshot.js';
import { assertNotCalledIsTrue, MODULES, type Spied, spiedCalls, SPY } from './support/npm-servers.js';
import { assertDocumentedScore } from './support/documented-scores.js';

/** What every check does on a server that does not implement progressive disclosure (or dashdash, or Tool Cards). */
const PLAIN_SERVER: Record<string, string> = {
  'pd-minimal-descriptions': 'fail',
  'pd-resource-listed': 'fail',
  'pd-description-required': 'fail',
  'pd-tools-parameter': 'skip',
  'pd-full-descriptions': 'skip',
  'pd-missing-tool-selection': 'skip',
  'pd-authorization-enforced': 'skip',
  'pd-session-isolation': 'skip',
  'pd-unknown-tool': 'skip',
  'pd-token-savings': 'skip',
  'pd-descriptions-tool': 'skip',
  'mcp-tool-names': 'pass',
  'mcp-tools-pagination': 'pass',
  'mcp-wire-valid': 'pass',
  'dashdash-server-metadata': 'skip',
  'dashdash-tool-metadata': 'skip',
  'dashdash-resource-metadata': 'skip',
  'dashdash-ai-help': 'skip',
  'toolcard-well-known': 'skip',
  'toolcard-files': 'skip',
  'mcp-capabilities': 'pass',
  // Each of them lists a tool without parameters whose schema accepts any object (a SHOULD).
  'mcp-input-schema': 'warn',
  // Judged on the {} calls criterion 7 made (no new call on a server without the resource): they were refused as
  // results.
  'mcp-input-validation': 'pass',
  'mcp-ping': 'pass',
  'mcp-session-lifecycle': 'skip',
  'mcp-origin-validation': 'skip',
  // They speak 2025-11-25 only: the rules of 2026-07-28 do not apply.
  'mcp-resource-not-found': 'skip',
  'mcp-modern-results': 'skip',
  // None of them lists more tools than a client takes (server-everything's 19 are within OpenAI's ~20).
  'mcp-tool-budget': 'pass',
  // Cut to their first sentences, some tools are found as others (docs/adopting.md, "Will a client still find the
  // tool?").
  'pd-selection-fidelity': 'warn',
  // The quality rules (what each finds and why: test/quality-real-servers.test.ts). Without the resource there is no
  // full description to judge, nor a resource description; none of them says where it keeps its data.
  'quality/listed-too-long': 'pass',
  'quality/listed-how': 'pass',
  'quality/full-parameters': 'skip',
  'quality/full-guidance': 'skip',
  'quality/internal-details': 'pass',
  'quality/resource-description': 'skip',
  'quality/instructions-workflow': 'skip',
  'quality/annotations': 'pass',
  'quality/steering': 'pass',
  'quality/schema-shape': 'skip',
  'quality/listing-order': 'pass',
};

/** server-filesystem's and server-everything's listed descriptions run to several sentences; server-filesystem's search_files says its pattern's format there. */
const FILESYSTEM_QUALITY = { 'quality/listed-too-long': 'warn', 'quality/listed-how': 'warn' };
/** server-everything gives instructions: it does not disclose progressively, so they have no workflow to state. */
const EVERYTHING_QUALITY = { 'quality/listed-too-long': 'warn', 'quality/instructions-workflow': 'pass' };

/** The tools each server's own annotations mark read-only (from its tools/list in the report's probe). */
function readOnlyTools(report: CheckReport): Set<string> {
  const listing = report.results
    .find((r) => r.id === 'pd-minimal-descriptions')
    ?.findings.flatMap((f) => f.transcript ?? [])
    .find((ex) => ex.method === 'tools/list');
  const tools =
    (listing?.response as { result?: { tools?: Array<{ name: string; annotations?: { readOnlyHint?: boolean } }> } })
      ?.result?.tools ?? [];
  return new Set(tools.filter((x) => x.annotations?.readOnlyHint === true).map((x) => x.name));
}

function assertFirstContact(
  t: Test,
  report: CheckReport,
  expected: Record<string, string>,
  spied: Spied[],
  outputSchema: 'pass' | 'skip',
): void {
  t.same(reportSchemaErrors(report), []);
  t.equal(report.verdict?.implements, 'no', `verdict: ${report.verdict?.summary}`);
  t.match(
    report.verdict?.summary,
    /tokens in every prompt; listed minimally, as serve would list them, ≈ [\d,]+\./,
    'the verdict gives the token figures',
  );
  const statuses = Object.fromEntries(report.results.map((r) => [r.id, r.status]));
  t.same(statuses, { ...expected, 'mcp-output-schema': outputSchema }, 'every check as expected');
  t.equal(report.results.length, DEFAULT_CHECKS.live.length);
  const readOnly = readOnlyTools(report);
  t.ok(readOnly.size > 0, 'the spy saw the tool list through the report');
  // A tool that is not read-only is called only with arguments its schema refuses, and after one
  // call ran unfetched only on a server whose argument check answered it (DESIGN, "Calling tools").
  const firstRun = spied.findIndex((c) => !c.refused);
  const validates = firstRun >= 0 && spied[firstRun].argumentsRefused;
  const later = spied.slice(firstRun + 1).filter((c) => !readOnly.has(c.tool));
  t.same(
    validates ? later.filter((c) => !c.argumentsRefused) : later,
    [],
    'after the first unfetched call ran, a tool that is not read-only was called only where its argument check refused it',
  );
  t.same(
    spied.filter((c) => !readOnly.has(c.tool) && !c.refused && !c.argumentsRefused),
    [],
    'indeed no such tool ran at all',
  );
}

t.test('@modelcontextprotocol/server-filesystem: a verdict, token figures, and nothing written', async (t) => {
  const sandbox = join(tempDir(), 'sandbox');
  mkdirSync(join(sandbox, 'notes'), { recursive: true });
  writeFileSync(join(sandbox, 'notes', 'a.txt'), 'hello\n');
  const before = snapshot(sandbox);
  const log = join(tempDir(), 'calls.jsonl');
  const run = await runCli([
    '--format',
    'json',
    '--',
    'node',
    SPY,
    log,
    '--',
    'node',
    join(MODULES, 'server-filesystem', 'dist', 'index.js'),
    sandbox,
  ]);
  t.equal(run.code, 1, 'exit 1');
  const report = JSON.parse(run.stdout) as CheckReport;
  assertFirstContact(t, report, { ...PLAIN_SERVER, ...FILESYSTEM_QUALITY }, spiedCalls(log), 'pass');
  assertDocumentedScore(t, report, '`@modelcontextprotocol/server-filesystem`');
  assertNotCalledIsTrue(t, report, log);
  t.equal(snapshot(sandbox), before, 'the sandbox is exactly as it was');

  const text = await runCli(['--', 'node', join(MODULES, 'server-filesystem', 'dist', 'index.js'), sandbox]);
  const lines = text.stdout.split('\n');
  t.match(
    lines.slice(0, 6).join('\n'),
    /PROGRESSIVE DISCLOSURE: NO\n {2}No: .* 14 tools cost [\d,]+ tokens in every prompt; listed minimally, as serve would list them, ≈ [\d,]+\./,
    'the verdict and the token figures come first',
  );
  const findingLines = lines.filter((l) => /^ {6}(error|warning|info) /.test(l)).length;
  t.ok(findingLines <= 20, `at most ~20 finding lines by default (${findingLines})`);
  const verbose = await runCli([
    '--verbose',
    '--',
    'node',
    join(MODULES, 'server-filesystem', 'dist', 'index.js'),
    sandbox,
  ]);
  t.ok(
    verbose.stdout.split('\n').filter((l) => /^ {6}error /.test(l)).length >= 26,
    '--verbose lists every finding on its own',
  );
});

t.test('@modelcontextprotocol/server-memory: a verdict, and its knowledge graph untouched', async (t) => {
  const memory = join(tempDir(), 'memory.jsonl');
  const log = join(tempDir(), 'calls.jsonl');
  const run = await runCli([
    '--format',
    'json',
    '--env',
    `MEMORY_FILE_PATH=${memory}`,
    '--',
    'node',
    SPY,
    log,
    '--',
    'node',
    join(MODULES, 'server-memory', 'dist', 'index.js'),
  ]);
  t.equal(run.code, 1);
  // Without the resource no call is made for input validation: the run's own calls with arguments a schema
  // refuses ({} to search_nodes and open_nodes, before any fetch) are what it is judged on.
  // server-memory's tools say one sentence each (but one): their first sentences are all there is.
  const report = JSON.parse(run.stdout) as CheckReport;
  t.match(
    report.results
      .find((r) => r.id === 'mcp-input-validation')
      ?.findings.map((f) => f.message)
      .join('\n'),
    /rejected arguments that break their inputSchema with a tool result with isError: true/,
    'input validation judged on the calls the run made ({} refused by search_nodes)',
  );
  assertFirstContact(
    t,
    report,
    // Its descriptions give one query: too few to judge how well a tool is found (a skip, never a pass at 0 %).
    { ...PLAIN_SERVER, 'pd-selection-fidelity': 'skip' },
    spiedCalls(log),
    'pass',
  );
  assertNotCalledIsTrue(t, report, log);
  assertDocumentedScore(t, report, '`@modelcontextprotocol/server-memory`');
  t.notOk(existsSync(memory) && readFileSync(memory, 'utf8').trim(), 'no entity, relation or observation was written');
});

t.test('@modelcontextprotocol/server-everything over stdio: a verdict, no seconds spent running tools', async (t) => {
  const log = join(tempDir(), 'calls.jsonl');
  const run = await runCli([
    '--format',
    'json',
    '--',
    'node',
    SPY,
    log,
    '--',
    'node',
    join(MODULES, 'server-everything', 'dist', 'index.js'),
    'stdio',
  ]);
  t.equal(run.code, 1);
  const report = JSON.parse(run.stdout) as CheckReport;
  assertFirstContact(t, report, { ...PLAIN_SERVER, ...EVERYTHING_QUALITY }, spiedCalls(log), 'skip');
  assertDocumentedScore(t, report, '`@modelcontextprotocol/server-everything`');
  assertNotCalledIsTrue(t, report, log);
  // "To do no harm" is said of a tool that may change data, never of one left for another reason.
  const notCalled = new Map((report.verdict?.notCalled ?? []).map((n) => [n.tool, n]));
  t.match(notCalled.get('toggle-simulated-logging'), { harm: true, why: /^it is not marked read-only, and / });
  t.match(notCalled.get('get-env'), { harm: false });
  const ran = spiedCalls(log).filter((c) => !c.refused && !c.argumentsRefused);
  t.ok(ran.length <= 2, `tools that ran: ${JSON.stringify(ran)}`);
  t.notOk(
    ran.some((c) => c.tool === 'trigger-long-running-operation' || c.tool === 'get-env'),
    'neither the slow tool nor get-env ran',
  );
});

// Its HTTP modes listen on every interface; a private network namespace keeps them unreachable.
const netns = spawnSync('unshare', ['-rn', 'true']).status === 0;
for (const [mode, path, transport] of [
  ['streamableHttp', '/mcp', 'streamable-http'],
  ['sse', '/sse', 'sse'],
] as const) {
  t.test(
    `@modelcontextprotocol/server-everything over ${transport}: a verdict, the transport named`,
    { skip: netns ? false : 'unshare -rn is not available here' },
    async (t) => {
      const script = join(ROOT, 'test', 'support', 'in-private-network.sh');
      const run = spawnSync(
        'unshare',
        [
          '-rn',
          'sh',
          script,
          '3001',
          CLI,
          join(MODULES, 'server-everything', 'dist', 'index.js'),
          mode,
          '--',
          '--format',
          'json',
          '--url',
          `http://127.0.0.1:3001${path}`,
        ],
        {
          cwd: ROOT,
          encoding: 'utf8',
          timeout: 120_000,
        },
      );
      t.not(run.status, 99, run.stderr);
      t.equal(run.status, 1, run.stderr);
      const report = JSON.parse(run.stdout) as CheckReport;
      t.same(reportSchemaErrors(report), []);
      t.equal(report.target.transport, transport, `the report says ${transport}`);
      t.equal(report.verdict?.implements, 'no');
      // Over Streamable HTTP it answers a deleted session's id with 400, not 404, and validates no Origin
      // (as the official suite's server-session-lifecycle and dns-rebinding-protection would say too).
      const http =
        transport === 'streamable-http' ? { 'mcp-session-lifecycle': 'fail', 'mcp-origin-validation': 'fail' } : {};
      t.same(Object.fromEntries(report.results.map((r) => [r.id, r.status])), {
        ...PLAIN_SERVER,
        ...EVERYTHING_QUALITY,
        'mcp-output-schema': 'skip',
        ...http,
      });
    },
  );
}
