// From no to yes on real servers from npm (devDependencies, started from node_modules, no network):
// init, then serve with that folder in front of the server; seen from the server's side through a spy
// relay, every claim of not calling a tool holds.
import t from 'tap';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { CLI, reportSchemaErrors, runCli, tempDir } from './helpers.js';
import { assertNotCalledIsTrue, MODULES, receivedTools, SPY } from './support/npm-servers.js';

// The way from no to yes on servers nobody here wrote: `init`, then `serve` with that folder in front of
// the real server (the spy between them sees what reached it). server-everything's
// trigger-long-running-operation runs 10 s, past the checker's 5 s timeout: no answer proves nothing,
// so no criterion may fail for it.
const PD_SERVED: Array<[string, string[], Record<string, string>, string?]> = [
  [
    'server-everything',
    [join(MODULES, 'server-everything', 'dist', 'index.js'), 'stdio'],
    {},
    'trigger-long-running-operation',
  ],
  [
    'server-memory',
    [join(MODULES, 'server-memory', 'dist', 'index.js')],
    { MEMORY_FILE_PATH: join(tempDir(), 'memory.jsonl') },
  ],
];
for (const [name, command, env, slowTool] of PD_SERVED) {
  t.test(
    `init, then serve in front of @modelcontextprotocol/${name}: yes, no criterion fails for a slow tool, and every claim of not calling holds`,
    async (t) => {
      const out = tempDir();
      const envFlags = Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
      const init = await runCli(['init', ...envFlags, '--out', out, '--', 'node', ...command]);
      t.equal(init.code, 0, init.stderr);
      const lint = await runCli(['lint', '--format', 'json', out]);
      t.equal((JSON.parse(lint.stdout) as CheckReport).summary.failed, 0, "init's folder lints with 0 failures");
      const log = join(tempDir(), 'calls.jsonl');
      const run = await runCli([
        '--format',
        'json',
        ...envFlags,
        '--',
        process.execPath,
        CLI,
        'serve',
        '--descriptions',
        out,
        '--',
        'node',
        SPY,
        log,
        '--',
        'node',
        ...command,
      ]);
      const report = JSON.parse(run.stdout) as CheckReport;
      t.same(reportSchemaErrors(report), []);
      t.equal(report.verdict?.implements, 'yes', report.verdict?.summary ?? run.stderr);
      t.equal(run.code, 0, 'exit 0');
      const failed = report.results
        .filter((r) => r.status === 'fail')
        .map((r) => `${r.id}: ${r.findings.find((f) => f.level === 'error')?.message}`);
      t.same(failed, [], 'no check fails');
      assertNotCalledIsTrue(t, report, log);
      if (slowTool)
        t.ok(
          receivedTools(log).has(slowTool),
          `the slow tool '${slowTool}' was met (and judged inconclusive, not failed)`,
        );
    },
  );
}
