// The quality rules' cost (issue 72): at most 20 ms added to a run of a 100-tool server, at most 10 %
// added to a lint of 10,000 files. A run of seconds cannot show 20 ms between two processes on a shared
// machine, so the rules' own time is measured in-process, on the texts a run of a 100-tool server reads
// (100 listed descriptions and 100 full ones): a lint of them with the rules, less the same lint without
// them, medians of 21 after a warm-up. The whole runs with and without follow (wall-clock, medians): their
// difference also holds what a run does for the rules besides them (the listing-order rule's second
// tools/list, loading the plugin, the score) and the machine's noise.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { lint } from '../../src/library/lint.js';
import { CLI, median, ROOT } from '../helpers.js';
import { measure } from './measure.js';
import { medianOf, row, RUNS, textRow } from './rows.js';
import { generateDescriptions } from './scale-rows.js';

const PD_SERVER = join(ROOT, 'dist', 'test', 'bench', 'pd-server.js');

/** A folder as a 100-tool server's texts (its parameters described): tool_descriptions/ and its tools/list. */
function hundredTools(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-pd-quality-bench-'));
  generateDescriptions(join(dir, 'tool_descriptions'), 100, true);
  const tools = Array.from({ length: 100 }, (_, i) => ({
    name: `tool_${i}`,
    description: `Tool number ${i}: does one thing of kind ${i}.`,
    inputSchema: { type: 'object', additionalProperties: true },
    annotations: { readOnlyHint: true, destructiveHint: false },
  }));
  writeFileSync(join(dir, 'tools-list.json'), JSON.stringify({ tools }));
  return dir;
}

/** The median time (ms) of a lint of `dir` in this process, `runs` times after five to warm up (compiled code). */
async function lintMs(dir: string, skip: string[], runs: number): Promise<number> {
  for (let i = 0; i < 5; i++) await lint([dir], { skip });
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await lint([dir], { skip });
    times.push(performance.now() - start);
  }
  return median(times);
}

export async function qualityRows(): Promise<void> {
  const folder = hundredTools();
  const withRules = await lintMs(folder, [], 21);
  const without = await lintMs(folder, ['quality/'], 21);
  const added = withRules - without;
  textRow(
    "the quality rules on a 100-tool server's texts (their own time, in-process)",
    `${added.toFixed(1)} ms (${withRules.toFixed(1)} with, ${without.toFixed(1)} without; medians of 21)`,
    `target ≤ 20 ms${added <= 20 ? ' (met)' : ' (not met)'}`,
  );
  row(
    'a run of a progressive-disclosure server with 100 tools (stdio)',
    medianOf(() => measure([CLI, '--format', 'json', '--', 'node', PD_SERVER, '100']), RUNS),
  );
  row(
    'the same, --skip quality/',
    medianOf(() => measure([CLI, '--format', 'json', '--skip', 'quality/', '--', 'node', PD_SERVER, '100']), RUNS),
  );

  // A lint of 10,000 files, with the rules and without: on a catalogue whose parameters are described (the
  // rules read every text and find nothing), and on one where each file is one finding of theirs (what
  // reporting 10,000 warnings costs, in every format's pipeline).
  for (const described of [true, false]) {
    const corpus = mkdtempSync(join(tmpdir(), 'mcp-pd-quality-lint-bench-'));
    generateDescriptions(join(corpus, 'tool_descriptions'), 10_000, described);
    const what = described ? 'parameters described' : 'a finding in each file';
    const lintWith = medianOf(() => measure([CLI, 'lint', '--format', 'json', corpus]), 3);
    const lintWithout = medianOf(() => measure([CLI, 'lint', '--format', 'json', '--skip', 'quality/', corpus]), 3);
    const share = (lintWith.ms - lintWithout.ms) / lintWithout.ms;
    row(`lint of 10,000 files (${what}), the quality rules with`, lintWith);
    row('the same, --skip quality/', lintWithout);
    textRow(
      `what the quality rules add to it`,
      `${Math.round(share * 100)} % (${Math.round(lintWith.ms - lintWithout.ms)} ms)`,
      described ? `target ≤ 10 %${share <= 0.1 ? ' (met)' : ' (not met)'}` : '(the cost of 10,000 findings)',
    );
    rmSync(corpus, { recursive: true, force: true });
  }
  rmSync(folder, { recursive: true, force: true });
}
