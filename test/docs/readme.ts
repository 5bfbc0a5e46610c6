// `npm run docs`: the README's sample outputs are what the commands print today. Each block
// marked `<!-- sample: <id> -->` is made by running its command for real (from a scratch folder
// that holds server-filesystem as node_modules/ does); `--write` puts the output in the README,
// without it the README is compared (durations aside) and every difference is said: exit 1.
// Every `mcp-pd-check …` line of a shell block is also read as the CLI would: a flag it does not
// know, on the command it is given to, is a difference too.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { parse as shellParse } from 'shell-quote';
import { buildProgram } from '../../src/cli/program.js';
import { ROOT } from '../helpers.js';
import { walkReadme } from './walk.js';
import { PAGES } from './pages.js';

const CLI = join(ROOT, 'dist', 'cli', 'cli.js');

interface Sample {
  /** The command as the README shows it (run from the scratch folder, `mcp-pd-check` being the built CLI). */
  command: string;
  /** Lines kept from the top of the output (the rest is "…"); all when undefined. */
  keep?: number;
  /** Where the excerpt starts: the first line that matches (the lines before are "…"). */
  from?: RegExp;
  /** Run in the checkout (for the built fixtures) instead of the scratch folder. */
  inCheckout?: boolean;
}

/** The samples, in the order they are made (init before the lint of what it wrote). */
const SAMPLES: Record<string, Sample> = {
  'first-run': {
    command: 'mcp-pd-check -- node node_modules/@modelcontextprotocol/server-filesystem/dist/index.js ./sandbox',
    keep: 14,
  },
  'init-filesystem': {
    command:
      'mcp-pd-check init --out pd -- node node_modules/@modelcontextprotocol/server-filesystem/dist/index.js ./sandbox',
  },
  'lint-pd': { command: 'mcp-pd-check lint pd', keep: 22 },
  shrunk: {
    command:
      'mcp-pd-check --seed 7 --only pd-authorization-enforced -- node dist/fixtures/servers/pd-authorization-enforced--prefix-grant.bundle.js',
    from: /✗ pd-authorization-enforced/,
    keep: 9,
    inCheckout: true,
  },
};

/**
 * The CLI as an installed package's bin on PATH (a link named mcp-pd-check): what a reader who
 * installed it runs, so that the commands a sample prints start with `mcp-pd-check`.
 */
const BIN = mkdtempSync(join(tmpdir(), 'mcp-pd-check-bin-'));
symlinkSync(CLI, join(BIN, 'mcp-pd-check'));
process.once('exit', () => rmSync(BIN, { recursive: true, force: true }));

function run(command: string, cwd: string): Promise<string> {
  const words = (shellParse(command) as string[]).slice(1);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(BIN, 'mcp-pd-check'), ...words], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', COLUMNS: '120', PATH: `${BIN}${delimiter}${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    // Absolute paths a command prints (a client's configuration needs them) name the reader's folder, not this one.
    // The checker's own file (a client's configuration names it) is where a reader's install puts it.
    child.on('close', () =>
      resolve(
        cwd === ROOT
          ? out.split(ROOT).join('/path/to/mcp-pd-check')
          : out.split(ROOT).join('/path/to/project/node_modules/mcp-pd-check').split(cwd).join('/path/to/project'),
      ),
    );
  });
}

function excerpt(output: string, sample: Sample): string {
  let lines = output.trimEnd().split('\n');
  const start = sample.from ? lines.findIndex((l) => sample.from!.test(l)) : 0;
  if (start > 0) lines = ['…', ...lines.slice(start)];
  const keep = sample.keep === undefined ? undefined : sample.keep + (start > 0 ? 1 : 0);
  return keep === undefined || lines.length <= keep ? lines.join('\n') : [...lines.slice(0, keep), '…'].join('\n');
}

/** What may differ between two runs of the same command: how long things took. */
function steady(text: string): string {
  return text
    .replace(/\b\d+(?:\.\d+)? (ms|s|MB)\b/g, 'N $1')
    .replace(/--seed \d+/g, '--seed N')
    .trimEnd();
}

const BLOCK = /<!-- sample: ([\w-]+) -->\n```(\w+)\n([\s\S]*?)\n```/g;

/** Flags of each command, as the CLI's own program declares them (commander: the source of --help). */
let program: ReturnType<typeof buildProgram> | undefined;
function knownFlags(command: string): Set<string> {
  program ??= buildProgram();
  const cmd = command === 'check' ? program : program.commands.find((c) => c.name() === command);
  const own = (cmd?.options ?? [])
    .flatMap((o) => [o.long, o.short, ...(o.negate && o.long ? [o.long.replace(/^--no-/, '--')] : [])])
    .filter((f): f is string => f !== undefined);
  return new Set([...own, '--help', '-h', '--']);
}

/** Each `mcp-pd-check …` line: a flag before the server command that its command does not know. */
function unknownFlags(lines: readonly string[], where: string): string[] {
  const problems: string[] = [];
  for (const line of lines) {
    const at = line.search(/(?:^|\s|\$ )(?:npx (?:--no-install |-y )?)?mcp-pd-check(?:\s|$)/);
    if (at < 0 || line.trimStart().startsWith('#')) continue;
    const words = (
      shellParse(
        line
          .slice(at)
          .replace(/^\s*\$ /, '')
          .replace(/\s#.*$/, '')
          .trim(),
        (key) => `$${key}`,
      ) as unknown[]
    ).filter((w): w is string => typeof w === 'string');
    if (!words.includes('mcp-pd-check')) continue;
    const rest = words.slice(words.indexOf('mcp-pd-check') + 1);
    const sub = ['lint', 'init', 'serve', 'explain', 'list-checks', 'merge'].includes(rest[0] ?? '')
      ? rest.shift()!
      : 'check';
    const flags = knownFlags(sub);
    for (const word of rest) {
      // The server command follows -- (words that are no flag are values or the command: skipped).
      if (word === '--') break;
      if (!word.startsWith('-') || word === '-') continue;
      const flag = word.split('=')[0];
      if (!flags.has(flag))
        problems.push(
          `${where}: '${line.trim()}': ${sub === 'check' ? 'mcp-pd-check' : `mcp-pd-check ${sub}`} has no option ${flag}`,
        );
    }
  }
  return problems;
}

/** The lines of the README's shell blocks. */
function shellLines(readme: string): string[] {
  return [...readme.matchAll(/```sh\n([\s\S]*?)\n```/g)].flatMap((block) => block[1].split('\n'));
}

/** The example lines of every command's --help (indented lines that run mcp-pd-check). */
async function helpLines(): Promise<Array<{ where: string; lines: string[] }>> {
  const out = [];
  for (const command of [[], ['lint'], ['init'], ['serve'], ['explain'], ['merge']]) {
    const text = await run(['mcp-pd-check', ...command, '--help'].join(' '), ROOT);
    out.push({
      where: `mcp-pd-check ${[...command, '--help'].join(' ')}`,
      lines: text.split('\n').filter((l) => /^\s+(\$ )?(npx )?mcp-pd-check /.test(l)),
    });
  }
  return out;
}

/**
 * The selection table's figures, from the lint of the tools lists it names (../shared/external/tools-list, when there).
 */
const TOOLS_LISTS = join(ROOT, '..', 'shared', 'external', 'tools-list');
const ROW = /^\| (server-)?([\w-]+) \| (\d+) \| ([^|]+?) \|/gm;

async function selectionCell(file: string): Promise<{ tools: number; cell: string } | undefined> {
  const out = await run(`mcp-pd-check lint --format json ${JSON.stringify(file)}`, ROOT);
  const summary = (
    JSON.parse(out) as { results: Array<{ findings: Array<{ code: string; args: Record<string, unknown> }> }> }
  ).results
    .flatMap((r) => r.findings)
    .find((f) => f.code === 'selection-summary');
  if (!summary) return undefined;
  const { percent, queries, mrr, tools } = summary.args as {
    percent: number;
    queries: number;
    mrr: string;
    tools: number;
  };
  // (the mean reciprocal rank says something once there are ten queries or more)
  return { tools, cell: `${percent} % of ${queries}${queries >= 10 ? ` (MRR ${mrr})` : ''}` };
}

async function selectionTable(readme: string, problems: string[]): Promise<string> {
  if (!existsSync(TOOLS_LISTS)) return readme;
  const rows = [...readme.matchAll(ROW)].filter((m) => existsSync(join(TOOLS_LISTS, `${m[2]}.json`)));
  let text = readme;
  for (const m of rows) {
    const fresh = await selectionCell(join(TOOLS_LISTS, `${m[2]}.json`));
    if (!fresh) continue;
    const row = `| ${m[1] ?? ''}${m[2]} | ${fresh.tools} | ${fresh.cell} |`;
    if (m[0] !== row) {
      problems.push(
        `README selection table, ${m[1] ?? ''}${m[2]}: '${m[0]}' but the lint of ${m[2]}.json says '${row}'`,
      );
      text = text.replace(m[0], row);
    }
  }
  return text;
}

const write = process.argv.includes('--write');
const scratch = mkdtempSync(join(tmpdir(), 'mcp-pd-check-docs-'));
try {
  mkdirSync(join(scratch, 'sandbox'));
  writeFileSync(join(scratch, 'sandbox', 'notes.txt'), 'a file to list\n');
  symlinkSync(join(ROOT, 'node_modules'), join(scratch, 'node_modules'), 'dir');
  const made = new Map<string, string>();
  for (const [id, sample] of Object.entries(SAMPLES))
    made.set(
      id,
      `$ ${sample.command}\n${excerpt(await run(sample.command, sample.inCheckout ? ROOT : scratch), sample)}`,
    );
  const problems: string[] = [];
  for (const help of await helpLines()) problems.push(...unknownFlags(help.lines, help.where));
  const seen = new Set<string>();
  // The README and its guides: each page's samples made and compared (written with --write), its flags checked.
  const pages = new Map(PAGES.map((page) => [page, readFileSync(join(ROOT, page), 'utf8')]));
  for (const [page, original] of pages) {
    problems.push(...unknownFlags(shellLines(original), page));
    let text = original.replace(BLOCK, (whole, id: string, lang: string, body: string) => {
      seen.add(id);
      const fresh = made.get(id);
      if (fresh === undefined) {
        problems.push(`${page}: a sample '${id}' that docs/readme.ts does not make`);
        return whole;
      }
      // A block that differs only in durations is left as it is (no churn from the machine's speed).
      if (steady(body) === steady(fresh)) return whole;
      {
        const [a, b] = [steady(body).split('\n'), steady(fresh).split('\n')];
        const line = a.findIndex((l, i) => l !== b[i]);
        problems.push(
          `README sample '${id}' (${page}) differs from what '${SAMPLES[id].command}' prints, from its line ${line + 1}:\n  README: ${a[line] ?? '(nothing)'}\n  now:    ${b[line] ?? '(nothing)'}`,
        );
      }
      return `<!-- sample: ${id} -->\n\`\`\`${lang}\n${fresh}\n\`\`\``;
    });
    text = await selectionTable(text, problems);
    pages.set(page, text);
  }
  for (const id of made.keys())
    if (!seen.has(id)) problems.push(`README: no block marked <!-- sample: ${id} --> in ${PAGES.join(', ')}`);
  // Then every command line and client configuration of every page, run as written (after the samples: lint reads what
  // init wrote).
  const walked = await walkReadme(pages, scratch);
  problems.push(
    ...walked.problems,
    ...unknownFlags(
      walked.workflowLines.map((l) => l.replace(/\$\{\{[^}]*\}\}/g, 'X')),
      'docs/workflows/sweep.yml',
    ),
  );
  if (!walked.workflowLines.some((l) => /mcp-pd-check merge /.test(l)))
    problems.push('docs/workflows/sweep.yml: no mcp-pd-check merge line found');
  if (write) {
    for (const [page, text] of pages) writeFileSync(join(ROOT, page), text);
    process.stdout.write(`README: ${seen.size} samples written\n`);
  }
  const left = write
    ? problems.filter((p) => !p.startsWith('README sample') && !p.startsWith('README selection table'))
    : problems;
  for (const p of left) process.stdout.write(`${p}\n`);
  if (left.length) process.exitCode = 1;
  else if (!write) {
    process.stdout.write(
      `README: ${seen.size} samples as printed today, every documented flag known (README and --help), ${walked.ran.length} commands and configurations run as written, ${walked.notRun.length} not run:\n`,
    );
    for (const { line, why } of walked.notRun) process.stdout.write(`  ${line}  (${why})\n`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
