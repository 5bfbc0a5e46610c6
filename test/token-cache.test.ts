// The CLI keeps token counts between runs (src/util/token-cache.ts): the first run counts and keeps
// them, by digest, never the texts; a later run of the same server needs no tokenizer at all and
// says exactly the same; a broken file is as good as none and is replaced.
import t from 'tap';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { REFERENCE, ROOT, tempDir } from './helpers.js';

// A copy of dist/cli beside it, with a cache of its own: its packages resolve as the original's do.
const copy = join(ROOT, 'dist', `token-cache-test-${process.pid}`);
cpSync(join(ROOT, 'dist', 'cli'), copy, { recursive: true });
rmSync(join(copy, '.cache'), { recursive: true, force: true });
t.teardown(() => rmSync(copy, { recursive: true, force: true }));
// The user's cache folder, as XDG_CACHE_HOME names it (src/util/cache-folder.ts).
const cacheHome = tempDir();
const cacheFolder = join(cacheHome, 'mcp-pd-check');
const kept = join(cacheFolder, 'tokens-o200k_base.json');

// Loaded before the CLI: any import of the tokenizer fails, so a run that still counts did not load it.
const NO_TOKENIZER = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent('export async function resolve(s, c, next) { if (s.startsWith("gpt-tokenizer")) throw new Error("the tokenizer was loaded"); return next(s, c); }'));`)}`;

function check(
  env: Record<string, string> = {},
): Promise<{ code: number | null; report: CheckReport | undefined; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [join(copy, 'cli.js'), '--format', 'json', '--protocol', '2025-11-25', '--explore', '0', '--', 'node', REFERENCE],
      { cwd: ROOT, env: { ...process.env, XDG_CACHE_HOME: cacheHome, ...env } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => {
      let report: CheckReport | undefined;
      try {
        report = JSON.parse(stdout) as CheckReport;
      } catch {
        // Said by the assertion that follows.
      }
      done({ code, report, stderr });
    });
  });
}

/** What the two token checks said: their findings with every figure. */
function tokenFindings(report: CheckReport | undefined): unknown {
  return report?.results
    .filter((r) => r.id === 'pd-token-savings' || r.id === 'mcp-tool-budget')
    .map((r) => ({ id: r.id, status: r.status, findings: r.findings.map((f) => [f.code, f.args]) }));
}

t.test('the first run keeps its counts by digest, the next counts nothing and says the same', async (t) => {
  const first = await check();
  t.equal(first.code, 0, `the reference server passes (${first.stderr.slice(0, 300)})`);
  const figures = tokenFindings(first.report) as Array<{ findings: unknown[] }>;
  t.ok(figures.length === 2 && figures.every((r) => r.findings.length > 0), 'both token checks reported their figures');
  t.ok(existsSync(kept), "the counts were kept beside the code cache, in the user's cache folder");
  t.notOk(existsSync(join(copy, '.cache')), 'nothing is written inside the installed package');
  const text = readFileSync(kept, 'utf8');
  const entries = JSON.parse(text) as Array<[string, number]>;
  t.ok(
    entries.length > 0 && entries.every(([key, count]) => /^[\w-]{22}$/.test(key) && Number.isInteger(count)),
    `digests and counts only (${entries.length})`,
  );
  t.notMatch(text, /list_notes|search_notes|notes/, 'no text of a description or a tool');
  const second = await check({ NODE_OPTIONS: `--import=${NO_TOKENIZER}` });
  t.equal(second.code, 0, `the same verdict without the tokenizer (${second.stderr.slice(0, 300)})`);
  t.same(tokenFindings(second.report), figures, 'the same figures, from the kept counts');
  t.same(
    readdirSync(cacheFolder).filter((f) => f.startsWith('tokens-')),
    ['tokens-o200k_base.json'],
    'no partial file left',
  );
});

t.test('a broken file is as good as none: the run counts, says the same and replaces it', async (t) => {
  const reference = tokenFindings((await check()).report);
  writeFileSync(kept, '{ not json');
  const run = await check();
  t.equal(run.code, 0);
  t.same(tokenFindings(run.report), reference, 'the same figures');
  t.doesNotThrow(() => JSON.parse(readFileSync(kept, 'utf8')) as unknown, 'the file was replaced by a whole one');
});
