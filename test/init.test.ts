// `mcp-pd-check init` (issue 16): from a real server to a folder the lint passes, without calling a tool.
import t from 'tap';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { REFERENCE, ROOT, runCli, startHttp, tempDir } from './helpers.js';

const FILESYSTEM = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
const SPY = join(ROOT, 'dist', 'test', 'support', 'spy-server.js');

/** Every file under a folder with its content, to see that a second run changed nothing. */
function snapshot(dir: string): string {
  return readdirSync(dir, { recursive: true }).map(String).sort().map((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? `${f}/` : `${f}:${readFileSync(p, 'utf8')}`;
  }).join('\n');
}

async function lintJson(dir: string): Promise<{ code: number | null; report: CheckReport }> {
  const run = await runCli(['lint', '--format', 'json', dir]);
  return { code: run.code, report: JSON.parse(run.stdout) as CheckReport };
}

t.test('init against server-filesystem: a folder the lint passes, token figures, nothing overwritten', async (t) => {
  const sandbox = tempDir();
  const out = join(tempDir(), 'pd');
  const log = join(tempDir(), 'calls.jsonl');
  const run = await runCli(['init', '--out', out, '--', 'node', SPY, log, '--', 'node', FILESYSTEM, sandbox]);
  t.equal(run.code, 0, run.stderr);
  t.notOk(existsSync(log) && readFileSync(log, 'utf8').trim(), 'no tool was called');
  t.match(run.stdout, /^Wrote 31 files to .* for 14 tools\./);
  t.match(run.stdout, /Tokens of tools\/list \(o200k_base\), before → after/);
  t.match(run.stdout, /\n {2}read_file +\d+ → +\d+\n/, 'a figure per tool');
  const total = /\n {2}all +(\d+) → +(\d+) +found first +(\d+) % +(\d+) % less in every prompt/.exec(run.stdout);
  t.ok(total && Number(total[3]) >= 0 && Number(total[3]) <= 100, `beside it, how often the tools' own sentences find them first (${total?.[3]} %)`);
  t.ok(total && Number(total[2]) < Number(total[1]), `the minimal list costs less (${total?.[1]} → ${total?.[2]})`);
  t.match(run.stdout, /Next:\n {2}1\. Review .*\n[\s\S]* {2}2\. Serve the folder[\s\S]* {2}3\. Run the checker/);

  for (const tool of ['read_file', 'write_file', 'list_allowed_directories']) {
    t.ok(existsSync(join(out, 'tool_descriptions', `${tool}.json`)), `tool_descriptions/${tool}.json`);
    t.ok(existsSync(join(out, '.well-known', 'mcp-tools', `${tool}.json`)), `.well-known/mcp-tools/${tool}.json`);
  }
  for (const file of ['tools-list.minimal.json', 'mcp-pd-check.config.json', '.github/workflows/mcp-pd-check.yml']) t.ok(existsSync(join(out, file)), file);
  const card = JSON.parse(readFileSync(join(out, '.well-known', 'mcp-tools', 'read_file.json'), 'utf8'));
  t.same([card.safety.side_effect_class, card.safety.human_approval_required], ['read', false], 'readOnlyHint → read');
  const write = JSON.parse(readFileSync(join(out, '.well-known', 'mcp-tools', 'write_file.json'), 'utf8'));
  t.match(write['x-review'], /^REVIEW: safety derived from the annotations \(destructiveHint → destructive, human approval required\)/, 'each card carries its review mark');
  t.same([write.safety.side_effect_class, write.safety.human_approval_required], ['destructive', true], 'destructiveHint → destructive, with approval');
  const minimal = JSON.parse(readFileSync(join(out, 'tools-list.minimal.json'), 'utf8')) as { tools: Array<{ inputSchema: Record<string, unknown> }> };
  t.ok(minimal.tools.every((tool) => !('properties' in tool.inputSchema)), 'the minimal list has no parameter details');

  const lint = await lintJson(out);
  t.equal(lint.code, 0, 'the lint passes');
  t.equal(lint.report.summary.failed + lint.report.summary.errors, 0, 'with no error');
  const review = lint.report.results.find((r) => r.id === 'lint-needs-review')!.findings.filter((f) => f.code === 'needs-review');
  t.ok(review.length >= 28, `review warnings are counted (${review.length})`);
  t.equal(review.filter((f) => f.location?.pointer === '/x-review').length, 14, 'one on each Tool Card');

  const text = await runCli(['lint', out]);
  const warningLines = text.stdout.split('\n').filter((l) => /^ {6}warning /.test(l));
  // A pair of near-duplicate descriptions is its own entry: it names both tools.
  const warningCodes = new Set(lint.report.results.flatMap((r) => r.findings.filter((f) => f.level === 'warning').map((f) => `${r.id}:${f.code}${f.code === 'near-duplicate' ? `:${String(f.args.tool)}` : ''}`)));
  t.ok(warningLines.length <= warningCodes.size, `the text folds one warning found in many files into one entry (${warningLines.length} lines for ${warningCodes.size} codes)`);
  t.match(text.stdout, new RegExp(`\\+ the same in ${review.length - 1} more places, in 28 files: '\\.well-known/mcp-tools/create_directory\\.json'`), 'and names the files it is in');
  const verbose = await runCli(['lint', '--verbose', out]);
  t.ok(verbose.stdout.split('\n').filter((l) => /^ {6}warning /.test(l)).length >= review.length, '--verbose lists each on its own line');

  const configFile = join(out, 'mcp-pd-check.config.json');
  t.match(readFileSync(join(out, '.github', 'workflows', 'mcp-pd-check.yml'), 'utf8'), `config: ${relative(ROOT, configFile)}\n`, 'the workflow names the config from where init ran');
  const checked = await runCli(['--config', configFile, '--only', 'pd-minimal-descriptions', '--format', 'json'], { cwd: tempDir() });
  t.equal(checked.code, 1, `the config starts the server from any folder, and it fails criterion 1 as it should (${checked.stderr.trim()})`);
  t.match(JSON.parse(checked.stdout || '{}').target?.command, /server-filesystem/);

  const before = snapshot(out);
  const again = await runCli(['init', '--out', out, '--', 'node', SPY, log, '--', 'node', FILESYSTEM, sandbox]);
  t.equal(again.code, 0);
  t.match(again.stdout, /^Wrote 0 files to .*\nKept 31 that already exist \(--force overwrites them\)/);
  t.equal(snapshot(out), before, 'a second run without --force changes nothing');
  writeFileSync(join(out, 'tool_descriptions', 'read_file.json'), '{}');
  const forced = await runCli(['init', '--force', '--out', out, '--', 'node', SPY, log, '--', 'node', FILESYSTEM, sandbox]);
  t.match(forced.stdout, /^Wrote 31 files/);
  t.equal(snapshot(out), before, '--force writes the same files again (generation is deterministic)');
});

/** A saved tools/list with schemas of every common kind (patterns, formats, enums, nesting, none). */
function savedList(): string {
  const kinds: Array<Record<string, unknown>> = [
    { type: 'object', properties: { id: { type: 'string', pattern: '^[a-z]+-\\d+$' } }, required: ['id'], additionalProperties: false },
    { type: 'object', properties: { when: { type: 'string', format: 'date-time' }, limit: { type: 'integer', minimum: 1, maximum: 50 } } },
    { type: 'object', properties: { mode: { enum: ['fast', 'safe'] }, tags: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true } }, required: ['mode'] },
    { type: 'object', properties: { filter: { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] } }, required: ['filter'] },
  ];
  const tools = Array.from({ length: 40 }, (_, i) => ({
    name: `tool_${i}`,
    description: `Tool ${i} does one thing. More about it here.`,
    ...(i % 10 === 9 ? {} : { inputSchema: kinds[i % kinds.length] }),
    annotations: { readOnlyHint: i % 2 === 0 },
  }));
  const file = join(tempDir(), 'tools-list.json');
  writeFileSync(file, JSON.stringify({ tools }));
  return file;
}

t.test('init --from a saved tools/list: offline, examples that validate, a command left to fill in', async (t) => {
  const out = join(tempDir(), 'pd');
  const run = await runCli(['init', '--out', out, '--from', savedList()]);
  t.equal(run.code, 0, run.stderr);
  const config = JSON.parse(readFileSync(join(out, 'mcp-pd-check.config.json'), 'utf8')) as { command: string[] };
  t.match(config.command.join(' '), /REVIEW: the command that starts your server/);
  const lint = await lintJson(out);
  t.equal(lint.report.summary.failed + lint.report.summary.errors, 0, `no error: ${JSON.stringify(lint.report.results.flatMap((r) => r.findings.filter((f) => f.level === 'error').map((f) => f.message)))}`);
  const invalid = lint.report.results.flatMap((r) => r.findings).filter((f) => f.code === 'example-invalid');
  t.same(invalid, [], 'every generated example validates against its schema');
});

t.test('init against a dashdash server writes SKILL.md from its ai_help', async (t) => {
  const out = join(tempDir(), 'pd');
  const run = await runCli(['init', '--out', out, '--', 'node', REFERENCE]);
  t.equal(run.code, 0, run.stderr);
  const skill = readFileSync(join(out, 'SKILL.md'), 'utf8');
  t.match(skill, /^<!-- REVIEW: made by mcp-pd-check init from the server's ai_help markdown/);
  t.match(skill, /\n---\nname: /, 'the ai_help front matter follows');
  t.match(skill, /## When to Use/);
});

t.test('init --url: the config keeps $VARIABLES, never a header value or a credential of the URL', async (t) => {
  const token = 'tok-3f9a1c7e5b2d8046';
  const server = await startHttp(REFERENCE, { MCP_PD_REFERENCE_TOKEN: token });
  t.teardown(() => server.stop());
  const out = join(tempDir(), 'pd');
  const literal = 'literal-key-71c4e2a9d05b';
  const url = new URL(server.url);
  url.username = 'someone';
  url.password = 'pw-9e8d7c6b5a';
  const run = await runCli(['init', '--out', out, '--url', server.url, '--header', 'Authorization: Bearer $PD_TOKEN', '--header', `X-Api-Key: ${literal}`], { env: { PD_TOKEN: token } });
  t.equal(run.code, 0, run.stderr);
  const config = JSON.parse(readFileSync(join(out, 'mcp-pd-check.config.json'), 'utf8')) as { url: string; headers: Record<string, string> };
  t.equal(config.url, server.url);
  t.same(config.headers, { Authorization: 'Bearer $PD_TOKEN', 'X-Api-Key': 'REVIEW: the X-Api-Key value from an environment variable, e.g. $X_API_KEY' });
  const everything = snapshot(out) + run.stdout + run.stderr;
  t.notOk(everything.includes(token) || everything.includes(literal), 'no header value is written or printed');

  const withCredentials = join(tempDir(), 'pd');
  const run2 = await runCli(['init', '--out', withCredentials, '--url', `${url.href}?key=qv-55aa33`, '--header', 'Authorization: Bearer $PD_TOKEN'], { env: { PD_TOKEN: token } });
  t.equal(run2.code, 0, run2.stderr);
  const config2 = JSON.parse(readFileSync(join(withCredentials, 'mcp-pd-check.config.json'), 'utf8')) as { url: string };
  t.match(config2.url, /^REVIEW: http:\/\/127\.0\.0\.1:\d+\/mcp\?key=%E2%80%A6 \(credentials and query values were left out/);
  const all2 = snapshot(withCredentials) + run2.stdout;
  t.notOk(all2.includes('pw-9e8d7c6b5a') || all2.includes('qv-55aa33'), 'no password or query value of the URL is written or printed');
});

t.test('init: usage errors are one line, exit 2; an unreachable server is exit 3', async (t) => {
  const missing = await runCli(['init', '--from', 'no-such-file.json']);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /^mcp-pd-check: --from 'no-such-file.json' does not exist\n/);
  const both = await runCli(['init', '--from', 'x.json', '--', 'node', 'server.js']);
  t.equal(both.code, 2);
  t.match(both.stderr, /give one source: --from FILE, --url URL or a server command/);
  const nothing = await runCli(['init']);
  t.equal(nothing.code, 2);
  t.match(nothing.stderr, /no server to check/);
  const file = join(tempDir(), 'tools.json');
  writeFileSync(file, JSON.stringify({ tools: [] }));
  const empty = await runCli(['init', '--out', join(tempDir(), 'pd'), '--from', file]);
  t.equal(empty.code, 2);
  t.match(empty.stderr, /^mcp-pd-check: --from .*tools\.json lists no tools: there is nothing to describe/);
  const underFile = await runCli(['init', '--out', join(file, 'pd'), '--', 'node', REFERENCE]);
  t.equal(underFile.code, 2, 'an --out that cannot be made is refused before the server starts');
  t.match(underFile.stderr, /^mcp-pd-check: --out '.*tools\.json\/pd' cannot be written: '.*tools\.json' is a file, not a folder; give a folder you can write to\n$/);
  const down = await runCli(['init', '--out', tempDir(), '--', 'nonexistent-cmd-xyz']);
  t.equal(down.code, 3);
  t.equal(down.stderr.trim().split('\n').length, 1, 'one line');
});
