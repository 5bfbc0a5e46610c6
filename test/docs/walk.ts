// The README and every command's --help walked as a new user would: every line of the README's
// shell blocks, each example of --help, and each client configuration the README shows, is run as
// written — `npx mcp-pd-check` is the built CLI, the example
// paths are stand-ins made in a scratch folder (dist/server.js and server/index.js start the
// reference server, tool_descriptions/ and .well-known/ hold its files, /path/to/mcp-pd-check is
// this checkout) — and must end with the exit code the README promises. A line that cannot run here
// (another program, a network, a placeholder of the reader's own) is named with the reason; a new
// line that is neither is a difference, so the walk cannot fall behind the README.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { parse as parseYaml } from 'yaml';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers.js';
import { walkSweep } from './sweep-walk.js';

const CLI = join(ROOT, 'dist', 'cli', 'cli.js');
/** What action.yml runs: the committed bundle. */
const ACTION = join(ROOT, 'src', 'action', 'bundle', 'action.js');
const REFERENCE = join(ROOT, 'dist', 'reference-server', 'bundle.js');

/** Lines that are not run here, and why (matched against the line as written). */
const NOT_RUN: Array<[RegExp, string]> = [
  [/^npm (ci|start|test|run build)\b|^npm ci && npm (start|run build)/, 'CI runs it on a fresh clone (.ci/run)'],
  [/^git clone /, "the repository's address is the reader's"],
  [/^npm link\b/, 'it changes the machine’s global npm'],
  [
    /^npm pack\b|npm install --save-dev .*\.tgz|^npx --no-install mcp-pd-check/,
    'test/packaging.test.ts installs the packed tarball and runs it',
  ],
  [/python -m my_mcp_server|uvx my-mcp-server|@acme\/mcp-server/, 'a placeholder for the reader’s own server'],
  [/mcp\.example\.com/, 'a placeholder for the reader’s own URL'],
  [/Application\\ Support\/Claude/, "Claude Desktop's own file (its shape is run below, from the README's JSON)"],
  [/--server-config server\.json/, 'a registry entry starts its package from the npm registry (the network)'],
  [/^claude mcp add /, 'Claude Code’s CLI'],
  [/python -m my_server/, 'a placeholder for the reader’s own server'],
  [
    /^mcp-pd-check merge shard-1\.json |^mcp-pd-check merge reports\//,
    "a sweep's shard reports: the walk of docs/workflows/sweep.yml merges real ones, test/sweep.test.ts its refusals",
  ],
];

/** Files a line must leave behind (in the scratch folder), and what each must be. */
const LEAVES: Array<[RegExp, Array<[string, RegExp]>]> = [
  [/--output report\.json/, [['report.json', /^\{\s*"\$schema"|^\{\s*"tool"/]]],
  [
    /--report junit=/,
    [
      ['mcp-junit.xml', /^<\?xml/],
      ['mcp.sarif', /"version": "2\.1\.0"/],
      ['step-summary.md', /progressive disclosure/i],
    ],
  ],
];

interface Walked {
  ran: string[];
  notRun: Array<{ line: string; why: string }>;
  problems: string[];
  /** The mcp-pd-check lines of docs/workflows/sweep.yml (their flags are checked as the README's). */
  workflowLines: string[];
}

/** Shell lines of the README (continuations joined, comments and blank lines left out). */
function commandLines(readme: string): string[] {
  const lines: string[] = [];
  for (const block of readme.matchAll(/```sh\n([\s\S]*?)\n```/g)) {
    const joined = block[1].replace(/\\\n\s*/g, '');
    for (const raw of joined.split('\n')) {
      const line = raw.replace(/\s+#.*$/, '').trim();
      if (line && !line.startsWith('#')) lines.push(line);
    }
  }
  return lines;
}

/** The client configurations the README shows (JSON blocks with mcpServers or servers). */
function configBlocks(readme: string): Array<{ shape: 'mcpServers' | 'servers'; text: string }> {
  return [...readme.matchAll(/```json\n([\s\S]*?)\n```/g)]
    .map((m) => m[1])
    .filter((text) => /"(mcpServers|servers)"/.test(text))
    .map((text) => ({ shape: /"mcpServers"/.test(text) ? ('mcpServers' as const) : ('servers' as const), text }));
}

/** The scratch folder as a user's project: the stand-ins the README's paths name. */
function standIns(scratch: string): { bin: string; env: NodeJS.ProcessEnv } {
  const bin = join(scratch, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'mcp-pd-check'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(bin, 'mcp-pd-check'), 0o755);
  // `npx -y <a server of this checkout's node_modules>`: that server, started at once. A real npx
  // asks the registry (no network here) and races its own cache when several sessions start
  // together (exit 1 now and then): what the walk checks is the configuration, not npm.
  const npx = spawnSync('/bin/sh', ['-c', 'command -v npx'], { encoding: 'utf8' }).stdout.trim() || 'npx';
  const local = (name: string) => join(ROOT, 'node_modules', '@modelcontextprotocol', name, 'dist', 'index.js');
  writeFileSync(
    join(bin, 'npx'),
    [
      '#!/bin/sh',
      ...['server-filesystem', 'server-memory', 'server-everything'].map(
        (name) =>
          `if [ "$1" = "-y" ] && [ "$2" = "@modelcontextprotocol/${name}" ]; then shift 2; exec "${process.execPath}" "${local(name)}" "$@"; fi`,
      ),
      `exec "${npx}" "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(join(bin, 'npx'), 0o755);
  const server = `import ${JSON.stringify(`file://${REFERENCE}`)};\n`;
  for (const file of [
    join(scratch, 'dist', 'server.js'),
    join(scratch, 'server', 'index.js'),
    join(scratch, 'server.js'),
    join(scratch, 'srv', 'server.js'),
  ]) {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, server);
  }
  cpSync(join(ROOT, 'reference-server', 'tool_descriptions'), join(scratch, 'tool_descriptions'), { recursive: true });
  cpSync(join(ROOT, 'reference-server', 'tool_descriptions'), join(scratch, 'reference-server', 'tool_descriptions'), {
    recursive: true,
  });
  cpSync(join(ROOT, 'reference-server', '.well-known'), join(scratch, '.well-known'), { recursive: true });
  // A saved tools/list result: the one init wrote (the samples ran init in this folder).
  const saved = join(scratch, 'pd', 'tools-list.minimal.json');
  if (existsSync(saved)) cpSync(saved, join(scratch, 'tools-list.json'));
  mkdirSync(join(scratch, '.vscode'), { recursive: true });
  writeFileSync(
    join(scratch, '.vscode', 'mcp.json'),
    JSON.stringify(
      {
        servers: {
          notes: { type: 'stdio', command: 'node', args: ['dist/server.js'], env: { NOTES_TOKEN: '${input:token}' } },
        },
      },
      null,
      2,
    ),
  );
  const env = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    NO_COLOR: '1',
    NOTES_TOKEN: 'walk-token',
    MCP_TOKEN: 'walk-token',
    GITHUB_STEP_SUMMARY: join(scratch, 'step-summary.md'),
  };
  return { bin, env };
}

function sh(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/**
 * Each line run as written from `cwd` (stand-ins for its placeholders), or said why not: every
 * line that runs a server runs one that passes everything, so it must end with exit 0 (serve ends
 * when its client's input does: none is given).
 */
async function runLines(
  lines: readonly string[],
  where: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  url: string,
  walked: Walked,
): Promise<void> {
  for (const line of lines) {
    const skip = NOT_RUN.find(([pattern]) => pattern.test(line));
    if (skip) {
      walked.notRun.push({ line: `${where}: ${line}`, why: skip[1] });
      continue;
    }
    if (!/\bmcp-pd-check\b|dist\/cli\/cli\.js/.test(line)) {
      walked.problems.push(`${where} line '${line}' is neither run by test/docs/walk.ts nor said why not`);
      continue;
    }
    const command = line
      .replace(/\bnpx (-y )?mcp-pd-check\b|\bnode dist\/cli\/cli\.js\b/g, 'mcp-pd-check')
      .replace(/http:\/\/127\.0\.0\.1:3000\/mcp/g, url)
      .replace(/\/path\/to\/your\/server\.js/g, join(cwd, 'dist', 'server.js'));
    const { code, out } = await sh(command, cwd, env);
    const missing = (LEAVES.find(([pattern]) => pattern.test(line))?.[1] ?? [])
      .filter(([file, shape]) => !existsSync(join(cwd, file)) || !shape.test(readFileSync(join(cwd, file), 'utf8')))
      .map(([file]) => file);
    if (code !== 0)
      walked.problems.push(
        `${where} line '${line}' ended with exit ${code}, not 0:\n  ${out.trim().split('\n').slice(-3).join('\n  ')}`,
      );
    else if (missing.length)
      walked.problems.push(`${where} line '${line}' did not write ${missing.join(', ')} as it says`);
    else walked.ran.push(`${where}: ${line}`);
  }
}

/**
 * The reference server over Streamable HTTP, on a port the OS picks: the URL the README's 127.0.0.1:3000 stands for.
 */
function httpReference(): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [REFERENCE, '--http', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(out)?.[0];
      if (url) resolve({ url, child });
    });
    child.on('exit', () => reject(new Error(`the HTTP reference server ended before it listened: ${out}`)));
  });
}

/** The examples of every command's --help (`$ mcp-pd-check …`, the words after the command's own gap left out). */
async function helpLines(env: NodeJS.ProcessEnv, cwd: string): Promise<string[]> {
  const lines: string[] = [];
  // init's before lint's: lint's first example reads the folder init's first example writes.
  for (const command of ['', 'init', 'lint', 'serve', 'explain', 'merge']) {
    const { out } = await sh(`mcp-pd-check ${command} --help`, cwd, env);
    for (const m of out.matchAll(/^\s+\$ (mcp-pd-check .*)$/gm)) lines.push(m[1].split(/\s{2,}/)[0].trim());
  }
  return lines;
}

/**
 * The README's workflows: each YAML block must parse, and each step that uses this repository's
 * action is run as its first run would be — its `with:` inputs as INPUT_* variables, in a folder
 * with the stand-ins and no baseline yet — and must end with exit 0.
 */
function runWorkflows(readme: string, scratch: string, env: NodeJS.ProcessEnv, walked: Walked): void {
  for (const [i, block] of [...readme.matchAll(/```ya?ml\n([\s\S]*?)\n```/g)].map((m) => m[1]).entries()) {
    let doc: { jobs?: Record<string, { steps?: Array<{ uses?: string; with?: Record<string, unknown> }> }> };
    try {
      doc = parseYaml(block) as typeof doc;
    } catch (err) {
      walked.problems.push(`README YAML block ${i + 1} does not parse: ${(err as Error).message.split('\n')[0]}`);
      continue;
    }
    for (const step of Object.values(doc?.jobs ?? {})
      .flatMap((job) => job.steps ?? [])
      .filter((s) => /mcp-pd-check@/.test(s.uses ?? ''))) {
      const first = join(scratch, `action-${i}`);
      mkdirSync(first, { recursive: true });
      standIns(first);
      const inputs = Object.fromEntries(
        Object.entries(step.with ?? {}).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, String(v)]),
      );
      const run = spawnSync(process.execPath, [ACTION], {
        cwd: first,
        env: { ...env, ...inputs, GITHUB_STEP_SUMMARY: join(first, 'summary.md') },
        encoding: 'utf8',
        timeout: 600_000,
      });
      const baseline = inputs.INPUT_BASELINE;
      if (run.status !== 0)
        walked.problems.push(
          `README's Action step (${step.uses}), run as its first run, ended with exit ${run.status}:\n  ${`${run.stdout}${run.stderr}`.trim().split('\n').slice(-3).join('\n  ')}`,
        );
      else if (baseline && !/::notice title=mcp-pd-check::the baseline .* does not exist yet/.test(run.stdout))
        walked.problems.push(
          `README's Action step: its first run, without ${baseline}, did not say the baseline is not there yet`,
        );
      else walked.ran.push(`README's Action step (${step.uses}), first run${baseline ? `, no ${baseline} yet` : ''}`);
    }
  }
}

/** Runs what the README, its guide pages (in their order) and --help show, from `scratch` (where the samples ran). */
export async function walkReadme(pages: ReadonlyMap<string, string>, scratch: string): Promise<Walked> {
  const walked: Walked = { ran: [], notRun: [], problems: [], workflowLines: [] };
  const { env } = standIns(scratch);
  const http = await httpReference();
  const readme = [...pages.values()].join('\n');
  try {
    // Each page's lines named by their page (a line of docs/ci.md is not the README's).
    for (const [page, text] of pages) await runLines(commandLines(text), page, scratch, env, http.url, walked);
    runWorkflows(readme, scratch, env, walked);
    // The sweep workflow the README links to: its YAML, its commands, run as its jobs would.
    const sweep = walkSweep(scratch, env);
    walked.ran.push(...sweep.ran);
    walked.problems.push(...sweep.problems);
    walked.workflowLines = sweep.lines;
    // --help's examples in a folder of their own (init writes pd/ there), with the same stand-ins.
    const help = join(scratch, 'help');
    mkdirSync(help, { recursive: true });
    standIns(help);
    if (existsSync(join(scratch, 'tools-list.json')))
      cpSync(join(scratch, 'tools-list.json'), join(help, 'tools-list.json'));
    await runLines(await helpLines(env, help), '--help', help, env, http.url, walked);
    for (const [i, block] of configBlocks(readme).entries()) {
      // The reader's paths: this checkout, and a folder of files to serve.
      const text = block.text
        .replaceAll('/path/to/mcp-pd-check', ROOT)
        .replaceAll('/path/to/files', join(scratch, 'sandbox'));
      const file =
        block.shape === 'servers' ? join(scratch, '.vscode', `walk-${i}.json`) : join(scratch, `walk-${i}.json`);
      writeFileSync(file, text);
      const what = `README's ${block.shape === 'servers' ? 'VS Code' : 'Claude Desktop'} configuration`;
      const { code, out } = await sh(`mcp-pd-check --server-config ${JSON.stringify(file)}`, scratch, env);
      const yes = /PROGRESSIVE DISCLOSURE: YES/.test(out);
      if (code !== 0 || !yes)
        walked.problems.push(
          `${what}, checked with --server-config, ended with exit ${code}${yes ? '' : ' and no yes'}:\n  ${out.trim().split('\n').slice(0, 6).join('\n  ')}`,
        );
      else walked.ran.push(what);
    }
  } finally {
    http.child.kill();
  }
  return walked;
}
