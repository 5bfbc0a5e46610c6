// A pass is a proof (issue 40): each criterion passes on the exchanges that prove it, a criterion
// without them is not proven (never a pass), the two readings of "nothing was ever refused" are said
// and told apart by a safe call, a grant meets every one-step sequel in every run, and what the
// report says about calls is what the ledger saw.
import t from 'tap';
import { LIVE_CHECKS } from '../checks/index.js';
import type { Behaviour } from '../reference-server/server.js';
import type { CheckReport } from '../src/generated/report.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkJson, fixtureBundle, REFERENCE, runCli, tempDir } from './helpers.js';
import { runInProcess, type Script } from './support/check-tester.js';
import { TEST_SEED } from './support/fixtures.js';
import { progressiveServer, type Message } from '../fixtures/hostile/raw-server.js';

const check = (id: string) => LIVE_CHECKS.find((c) => c.id === id)!;
const fixture = async (name: string) =>
  ((await import(`../fixtures/servers/${name}.js`)) as { overrides: Partial<Behaviour> }).overrides;
const criteria = (report: CheckReport) => report.results.filter((r) => r.spec.criterion !== undefined);

t.test('the reference server: yes, and each of the nine criteria names its proof', async (t) => {
  const report = await runInProcess(LIVE_CHECKS, { reference: {} }, { seed: TEST_SEED });
  t.equal(report.verdict?.implements, 'yes');
  t.equal(criteria(report).length, 9);
  for (const r of criteria(report)) {
    t.equal(r.status === 'pass' || r.status === 'warn', true, `${r.id} passes`);
    t.ok(r.proof?.message && r.proof.transcript?.length, `${r.id} is proven by exchanges: ${r.proof?.message}`);
  }
  const isolation = criteria(report).find((r) => r.id === 'pd-session-isolation')!;
  t.match(
    isolation.proof?.message,
    /was refused '.+' while session .+ held it, and session .+, opened after .+ had ended, was refused/,
    '#8: refused beside a holder, and after an end',
  );
  t.match(
    JSON.stringify(isolation.proof?.transcript),
    /TOOL_DESCRIPTION_REQUIRED/,
    'its transcript holds the refusals',
  );
  // The reference server never ran a tool unfetched: no sentence of the report may say it did.
  t.notMatch(JSON.stringify(report), /ran unfetched/, 'nothing says a tool ran unfetched');
});

t.test('-v names each proof in one line', async (t) => {
  const run = await runCli(['-v', '--explore', '0', '--only', 'pd-', '--', 'node', REFERENCE]);
  t.equal(run.code, 0, run.stderr);
  for (const criterion of ['pd-authorization-enforced', 'pd-description-required', 'pd-session-isolation']) {
    t.match(
      run.stdout,
      new RegExp(`✓ ${criterion} #\\d[^\\n]*\\n\\s+proven by: [^\\n]+`),
      `${criterion}: "proven by:" under it`,
    );
  }
});

t.test(
  'a server that never gates and whose one tool cannot be called safely is not yes; --safe-tool tells the readings apart',
  async (t) => {
    const overrides = await fixture('pd-description-required--ungated-uncallable');
    const report = await runInProcess(LIVE_CHECKS, { reference: overrides }, { seed: TEST_SEED });
    t.equal(report.verdict?.implements, 'partly');
    t.same(report.verdict?.unproven?.map((u) => u.id).sort(), [
      'pd-authorization-enforced',
      'pd-description-required',
      'pd-session-isolation',
    ]);
    t.same(
      criteria(report)
        .filter((r) => r.status === 'fail')
        .map((r) => r.id),
      [],
      'nothing fails: nothing was observed',
    );

    // Named safe, the tool is called before anything is fetched: it runs, so the server gates nothing.
    const told = await runInProcess(
      LIVE_CHECKS,
      { reference: overrides },
      { seed: TEST_SEED, safeTools: ['service_status'] },
    );
    const seven = told.results.find((r) => r.id === 'pd-description-required')!;
    t.equal(seven.status, 'fail');
    t.same(
      [...new Set(seven.findings.filter((f) => f.level === 'error').map((f) => f.code))],
      ['ran-unfetched'],
      'one reading left: no gate at all',
    );
  },
);

t.test('--safe-tool is a flag of the CLI and a key of the config file', async (t) => {
  const bundle = fixtureBundle('pd-description-required--ungated-uncallable');
  const { report } = await checkJson(
    ['node', bundle],
    ['--explore', '0', '--only', 'pd-description-required', '--safe-tool', 'service_status'],
  );
  t.equal(report.results.find((r) => r.id === 'pd-description-required')?.status, 'fail');
  t.same(report.options?.safeTools, ['service_status'], 'the report says which tools were named safe');
  const dir = tempDir();
  writeFileSync(
    join(dir, 'mcp-pd-check.config.json'),
    JSON.stringify({ command: ['node', bundle], safeTools: ['service_status'], explore: 0 }),
  );
  const fromFile = await runCli([
    '--format',
    'json',
    '--only',
    'pd-description-required',
    '--config',
    join(dir, 'mcp-pd-check.config.json'),
  ]);
  t.equal(
    (JSON.parse(fromFile.stdout) as CheckReport).results.find((r) => r.id === 'pd-description-required')?.status,
    'fail',
    'safeTools in the config file does the same',
  );
});

t.test(
  'grants shared by every session, without a tool known to be safe: #7 names both readings, #8 is not proven',
  async (t) => {
    const overrides = await fixture('pd-description-required--shared-grants-unannotated');
    const report = await runInProcess(LIVE_CHECKS, { reference: overrides, kind: 'http' }, { seed: TEST_SEED });
    const seven = report.results.find((r) => r.id === 'pd-description-required')!;
    const finding = seven.findings.find((f) => f.code === 'ran-unfetched-never-refused');
    t.ok(finding, '#7 fails as observed');
    t.match(
      finding?.message,
      /Two readings fit: the server gates no call at all, or its grants are shared by every session/,
    );
    t.match(finding?.hint, /--safe-tool NAME/, 'and says how to tell them apart');
    t.equal(report.results.find((r) => r.id === 'pd-session-isolation')?.status, 'skip', '#8 is not proven');
  },
);

t.test('a listing that clears the grants fails criterion 6 whatever the seed (20 seeds)', async (t) => {
  const overrides = await fixture('pd-authorization-enforced--listing-clears-grants');
  const caught: number[] = [];
  for (let seed = 1; seed <= 20; seed++) {
    const report = await runInProcess(
      [check('pd-authorization-enforced')],
      { reference: overrides },
      { seed, explore: 0 },
    );
    if (report.results[0].findings.some((f) => f.code === 'grant-not-kept')) caught.push(seed);
  }
  t.equal(caught.length, 20, `caught with every seed, even without exploring (${caught.length} of 20)`);
});

/**
 * A server that gates nothing, whose tools reach the network and fail there (as a browser tool without a browser does).
 */
const failsAtWork: Script = (() => {
  const tools = [
    {
      name: 'fetch_page',
      description: 'Fetches a web page and returns its text.',
      annotations: { readOnlyHint: true },
    },
    { name: 'save_page', description: 'Saves a web page to the archive.' },
  ];
  const full = [
    {
      name: 'fetch_page',
      description: 'Fetches a web page.',
      inputSchema: { type: 'object', properties: { url: { type: 'string' } } },
      examples: [{ description: 'A page', input: { url: 'https://example.org' } }],
    },
    {
      name: 'save_page',
      description: 'Saves a web page.',
      inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
      examples: [{ description: 'A page', input: { url: 'https://example.org' } }],
    },
  ];
  const sessions = new Map<number, (m: Message) => unknown>();
  return (message, session) => {
    if (!sessions.has(session)) sessions.set(session, progressiveServer(tools, full));
    if (message.method === 'tools/call') return { error: { code: -32603, message: 'fetch failed' } };
    return sessions.get(session)!(message) as ReturnType<Script>;
  };
})();

t.test(
  'words from the ledger: a call that reached the tool and failed at its work was let through; nothing is both not called and let through',
  async (t) => {
    const report = await runInProcess(LIVE_CHECKS, { script: failsAtWork }, { seed: TEST_SEED });
    const seven = report.results.find((r) => r.id === 'pd-description-required')!;
    const ran = seven.findings.filter((f) => f.level === 'error');
    t.ok(ran.length, '#7 fails');
    t.ok(
      ran.every((f) => f.code === 'ran-unfetched' || f.code === 'ran-unfetched-never-refused'),
      `as let through, not as a refusal without the code (${ran.map((f) => f.code).join(', ')})`,
    );
    t.match(ran[0]?.message, /let through \(it ran and failed: \{"code":-32603,"message":"fetch failed"\}\)/);
    const letThrough = new Set(ran.map((f) => f.location?.tool));
    const notCalled = seven.findings.filter((f) => f.code === 'not-called').flatMap((f) => f.args.tools as string[]);
    t.same(
      notCalled.filter((tool) => letThrough.has(tool)),
      [],
      `no tool is both not called and let through (not called: ${notCalled.join(', ') || 'none'})`,
    );
    // Read-only tools are never said to be left uncalled "to do no harm".
    t.notOk(
      report.verdict?.notCalled?.some((n) => n.tool === 'fetch_page' && n.harm !== false),
      'the read-only tool is not among those spared for harm',
    );
  },
);

t.test('the same --seed gives the same findings and proofs, run after run, over stdio', async (t) => {
  // Everything but timings: statuses, findings (codes, args, locations, transcripts, shortest sequences) and proofs.
  const canon = (report: CheckReport) => JSON.stringify(report.results.map((r) => ({ ...r, durationMs: 0 })));
  const bundle = fixtureBundle('pd-authorization-enforced--listing-clears-grants');
  const runs: string[] = [];
  for (let i = 0; i < 3; i++) runs.push(canon((await checkJson(['node', bundle], ['--seed', '7'])).report));
  t.match(runs[0], /grant-not-kept/, 'the fault is found');
  t.equal(runs[1], runs[0], 'the second run: identical');
  t.equal(runs[2], runs[0], 'the third run: identical');
});
