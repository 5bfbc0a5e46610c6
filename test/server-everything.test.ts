import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../src/generated/report.js';
import { ROOT, runCli, tempDir } from './helpers.js';

const EVERYTHING = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

// Its verdict, statuses and calls over stdio, Streamable HTTP and SSE: test/interop.test.ts.

t.test(
  "server-everything holds the secret, yet no report of any format carries a secret of the checker's environment",
  async (t) => {
    const secret = 'tok_everything_5e4d3c2b1a0f';
    const dir = tempDir();
    const formats = ['json', 'junit', 'sarif', 'github', 'markdown', 'html', 'text'];
    const reports = formats.flatMap((f) => ['--report', `${f}=${join(dir, `r.${f}`)}`]);
    // --inherit-env: the server then holds the secret and get-env returns it (the default environment's
    // case, where it never gets it, is test/leaks.test.ts' env-echo).
    for (const how of [['--inherit-env']]) {
      const run = await runCli(['--format', 'json', ...reports, ...how, '--', process.execPath, EVERYTHING, 'stdio'], {
        env: { MCP_PD_FAKE_SECRET_KEY: secret },
      });
      t.equal(run.code, 1, `${how.join(' ') || 'default environment'}: a verdict`);
      // get-env is not even called: the first unfetched call (echo) already proves criterion 7. The
      // masking of a called get-env is test/leaks.test.ts' env-echo fixture.
      const called = (JSON.parse(run.stdout) as CheckReport).results
        .flatMap((r) => r.findings)
        .flatMap((f) => f.transcript ?? [])
        .filter((ex) => ex.method === 'tools/call')
        .map((ex) => (ex.request as { params?: { name?: string } }).params?.name);
      t.notOk(called.includes('get-env'), 'get-env was not called');
      for (const text of [run.stdout, run.stderr, ...formats.map((f) => readFileSync(join(dir, `r.${f}`), 'utf8'))]) {
        t.notOk(text.includes(secret), 'the secret is in no output');
      }
    }
  },
);
