// The quality rules against servers nobody here wrote (the npm servers the suite installs), and behind
// `serve` with the folder `init` wrote for one of them: every finding, written out with why a person
// reading the description it names agrees. What init writes itself (the listed descriptions, the
// resource description, the instructions behind serve) passes; what it copies from the server (its
// parameters) is judged as the server's.
import t, { type Test } from 'tap';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { CLI, runCli, tempDir } from './helpers.js';
import { MODULES } from './support/npm-servers.js';

interface Expected {
  check: string;
  code: string;
  tools: string[];
  why: string;
}

/** Each finding of the quality rules, as `check code tool` lines. */
function findingsOf(report: CheckReport): string[] {
  return [
    ...new Set(
      report.results
        .filter((r) => r.id.startsWith('quality/'))
        .flatMap((r) =>
          r.findings
            .filter((f) => f.level !== 'info')
            .map((f) => `${r.id} ${f.code} ${typeof f.args.tool === 'string' ? f.args.tool : ''}`.trim()),
        ),
    ),
  ].sort();
}

const linesOf = (expected: Expected[]) =>
  expected
    .flatMap((e) => (e.tools.length ? e.tools.map((x) => `${e.check} ${e.code} ${x}`) : [`${e.check} ${e.code}`]))
    .sort();

async function qualityRun(t: Test, server: string[], env: Record<string, string> = {}): Promise<CheckReport> {
  const run = await runCli(['--format', 'json', '--only', 'quality/', '--protocol', '2025-11-25', '--', ...server], {
    env,
  });
  t.ok(run.stdout.startsWith('{'), `a JSON report (${run.stderr.slice(0, 300)})`);
  return JSON.parse(run.stdout) as CheckReport;
}

const FILESYSTEM = join(MODULES, 'server-filesystem', 'dist', 'index.js');

/** server-filesystem as it is (no progressive disclosure: only what tools/list says is read). */
const FILESYSTEM_FINDINGS: Expected[] = [
  {
    check: 'quality/listed-too-long',
    code: 'too-long',
    tools: [
      'create_directory',
      'directory_tree',
      'get_file_info',
      'list_allowed_directories',
      'list_directory',
      'list_directory_with_sizes',
      'move_file',
      'read_multiple_files',
      'read_text_file',
      'search_files',
    ],
    why: 'each is listed with three to five sentences (62 to 115 tokens): the error messages it gives, the encodings it handles, what happens when a directory exists — all of it in every prompt',
  },
  {
    check: 'quality/listed-how',
    code: 'how-in-listing',
    tools: ['search_files'],
    why: '"The patterns should be glob-style patterns that match paths relative to the working directory" is the format of its pattern argument',
  },
];

/** server-everything: two tools run long in tools/list. */
const EVERYTHING_FINDINGS: Expected[] = [
  {
    check: 'quality/listed-too-long',
    code: 'too-long',
    tools: ['gzip-file-as-resource', 'simulate-research-query'],
    why: "gzip-file-as-resource explains its output types and the session's download, simulate-research-query its stages and when it elicits: three sentences each, about 70 tokens",
  },
];

/**
 * server-filesystem behind `serve` with init's folder: the listed descriptions init wrote pass (it left
 * out the sentence of search_files that says its pattern's format), so do the resource description and
 * the instructions serve gives; the parameters init copied as the server gives them are described by the
 * server or not at all.
 */
const BEHIND_SERVE_FINDINGS: Expected[] = [
  {
    check: 'quality/full-parameters',
    code: 'parameter-undescribed',
    tools: [
      'create_directory',
      'directory_tree',
      'edit_file',
      'get_file_info',
      'list_directory',
      'list_directory_with_sizes',
      'move_file',
      'read_file',
      'read_media_file',
      'read_text_file',
      'search_files',
      'write_file',
    ],
    why: "the server gives path (and write_file's content, edit_file's edits, move_file's source and destination, search_files' pattern, the excludePatterns) a type and no description; init copies input schemas as the server gives them",
  },
];

t.test('server-filesystem: every quality finding is one a reader agrees with', async (t) => {
  const report = await qualityRun(t, ['node', FILESYSTEM, tempDir()]);
  t.same(findingsOf(report), linesOf(FILESYSTEM_FINDINGS));
});

t.test('server-memory: nothing to say — one short sentence a tool, annotated', async (t) => {
  const report = await qualityRun(t, ['node', join(MODULES, 'server-memory', 'dist', 'index.js')], {
    MEMORY_FILE_PATH: join(tempDir(), 'memory.jsonl'),
  });
  t.same(findingsOf(report), []);
  t.ok(
    report.results.some((r) => r.id === 'quality/listed-too-long' && r.status === 'pass'),
    'its listed descriptions were judged (and passed)',
  );
});

t.test('server-everything: every quality finding is one a reader agrees with', async (t) => {
  const report = await qualityRun(t, ['node', join(MODULES, 'server-everything', 'dist', 'index.js'), 'stdio']);
  t.same(findingsOf(report), linesOf(EVERYTHING_FINDINGS));
});

t.test(
  "server-filesystem behind serve with init's folder: what init wrote passes, the server's parameters do not",
  async (t) => {
    const dir = tempDir();
    const init = await runCli(['init', '--out', join(dir, 'pd'), '--', 'node', FILESYSTEM, dir]);
    t.equal(init.code, 0, init.stderr);
    const report = await qualityRun(t, [
      process.execPath,
      CLI,
      'serve',
      '--descriptions',
      join(dir, 'pd'),
      '--',
      'node',
      FILESYSTEM,
      dir,
    ]);
    t.same(findingsOf(report), linesOf(BEHIND_SERVE_FINDINGS));
    // What init and serve wrote themselves: each rule of theirs ran, and passed.
    for (const id of [
      'quality/listed-too-long',
      'quality/listed-how',
      'quality/resource-description',
      'quality/instructions-workflow',
      'quality/full-guidance',
      'quality/steering',
    ])
      t.equal(report.results.find((r) => r.id === id)?.status, 'pass', `${id} passes`);
  },
);
