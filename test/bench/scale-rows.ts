// The bench's scale rows, generated at bench time, never committed: progressive-disclosure servers of
// 1,000 and 10,000 tools, lock and lock --check of one, init --from a tools/list of 1,000 tools, lint
// of 10,000 and 100,000 description files, and the selection rule over 100 and 1,000 tools.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT } from '../helpers.js';
import { measure } from './measure.js';
import { medianOf, row, textRow } from './rows.js';
import { timeSelection } from './selection-bench.js';

const PD_SERVER = join(ROOT, 'dist', 'test', 'bench', 'pd-server.js');

/** The scale rows, in this order. */
export function scaleRows(): void {
  // Scale: generated at bench time, never committed.
  row(
    'a progressive-disclosure server with 1,000 tools (stdio)',
    medianOf(() => measure([CLI, '--format', 'json', '--', 'node', PD_SERVER, '1000']), 3),
    'target ≤ 3 s',
    { ms: 3000 },
  );
  row(
    'a progressive-disclosure server with 10,000 tools (stdio)',
    medianOf(() => measure([CLI, '--format', 'json', '--', 'node', PD_SERVER, '10000']), 3),
    'target ≤ 15 s, ≤ 300 MB',
    { ms: 15_000, mb: 300 },
  );
  const lockFile = join(mkdtempSync(join(tmpdir(), 'mcp-pd-lock-bench-')), 'mcp-tools.lock.json');
  row(
    'mcp-pd-check lock of a server with 1,000 tools (stdio, both eras)',
    medianOf(() => measure([CLI, 'lock', '--out', lockFile, '--', 'node', PD_SERVER, '1000']), 3),
    'target ≤ 2 s',
    { ms: 2000 },
  );
  row(
    'mcp-pd-check lock --check of the same (as locked)',
    medianOf(() => measure([CLI, 'lock', '--check', lockFile, '--', 'node', PD_SERVER, '1000']), 3),
    'target ≤ 2 s',
    { ms: 2000 },
  );

  // init --from a saved tools/list of 1,000 tools (generated here), into a fresh folder each time.
  const initDir = mkdtempSync(join(tmpdir(), 'mcp-pd-init-bench-'));
  writeFileSync(
    join(initDir, 'tools.json'),
    JSON.stringify({
      tools: Array.from({ length: 1000 }, (_, i) => ({
        name: `tool_${i}`,
        description: `Tool ${i} does one thing. Details of its arguments and results follow here.`,
        inputSchema: {
          type: 'object',
          properties: {
            id: { type: 'string', pattern: '^[a-z]+-\\d+$' },
            limit: { type: 'integer', minimum: 1, maximum: 100 },
            when: { type: 'string', format: 'date-time' },
          },
          required: ['id'],
          additionalProperties: false,
        },
        annotations: { readOnlyHint: i % 2 === 0 },
      })),
    }),
  );
  let initRun = 0;
  row(
    'mcp-pd-check init --from a tools/list of 1,000 tools',
    medianOf(
      () => measure([CLI, 'init', '--out', join(initDir, `out-${initRun++}`), '--from', join(initDir, 'tools.json')]),
      3,
    ),
    'target ≤ 3 s',
    { ms: 3000 },
  );
  rmSync(initDir, { recursive: true, force: true });

  const corpus = mkdtempSync(join(tmpdir(), 'mcp-pd-lint-bench-'));
  for (const files of [10_000, 100_000]) {
    const dir = join(corpus, String(files), 'tool_descriptions');
    generateDescriptions(dir, files);
    row(
      `lint of ${files.toLocaleString('en-US')} tool description files`,
      medianOf(() => measure([CLI, 'lint', '--format', 'json', dir]), 3),
      files === 10_000 ? 'target ≤ 2 s' : 'target ≤ 20 s, ≤ 1 GiB',
      files === 10_000 ? { ms: 2000 } : { ms: 20_000, mb: 1024 },
    );
    rmSync(join(corpus, String(files)), { recursive: true, force: true });
  }
  rmSync(corpus, { recursive: true, force: true });

  // The selection rule (pd-selection-fidelity, lint, init): BM25 over names and minimal descriptions.
  timeSelection(100);
  for (const [n, target] of [
    [100, 'target ≤ 50 ms'],
    [1000, 'target ≤ 1 s'],
  ] as const) {
    textRow(
      `selection fidelity of ${n.toLocaleString('en-US')} tools (5 queries each, in-process)`,
      `${Math.round(timeSelection(n, n === 100 ? 7 : 3))} ms`,
      target,
    );
  }
}

/**
 * N tool descriptions, each with its own schema (as in a real catalogue: no cache helps). `described`: each
 * parameter says what it is (a catalogue the quality rules pass); without, each file is one finding of theirs.
 */
export function generateDescriptions(dir: string, count: number, described = false): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    const name = `tool_${i}`;
    writeFileSync(
      join(dir, `${name}.json`),
      JSON.stringify(
        {
          name,
          description: `Tool number ${i}: does one thing of kind ${i} and returns the result as JSON.`,
          inputSchema: {
            type: 'object',
            properties: {
              id: {
                type: 'string',
                pattern: '^[a-z]+-\\d+$',
                ...(described ? { description: `The item's id, e.g. item-${i}.` } : {}),
              },
              limit: {
                type: 'integer',
                minimum: 1,
                maximum: 100 + i,
                ...(described ? { description: `How many results at most (1 to ${100 + i}).` } : {}),
              },
            },
            required: ['id'],
            additionalProperties: false,
          },
          examples: [{ description: 'Basic', input: { id: `item-${i}`, limit: 10 } }],
          usage_guidance: { common_patterns: ['Call it with an id.'] },
          error_guidance: {
            common_errors: [{ error: 'NOT_FOUND', cause: 'Unknown id.', solution: 'List ids first.' }],
          },
        },
        null,
        2,
      ),
    );
  }
}
