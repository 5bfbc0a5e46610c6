// What the hostile-server tests share: a CLI run with a hang guard, the verdict rules, and a
// search for processes a fixture left behind.
import type t from 'tap';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../../src/generated/report.js';
import { CLI, reportSchemaErrors, ROOT } from '../helpers.js';

export const HOSTILE = join(ROOT, 'dist', 'fixtures', 'hostile');
export const SOURCES = join(ROOT, 'fixtures', 'hostile');
/** Generous: a hang guard, not a speed test (speed is for the bench). */
export const HANG_GUARD_MS = 300_000;
/**
 * Bounds only a hang exceeds, never a slow machine: a server that answers gets a minute per
 * request, and the whole run four. A test that needs a time limit to fire uses STALLS.
 */
export const BOUNDS = ['--timeout', '60000', '--sessions', '3', '--max-duration', '240', '--explore', '0'];
/**
 * For a fixture that stalls forever: its requests time out whatever the machine's speed, so a
 * short limit is no race (it goes after BOUNDS: the last value of an option wins).
 */
export const STALLS = ['--timeout', '1000', '--startup-timeout', '2000'];

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  killed: boolean;
  /** The CLI's process id: what its run marker (MCP_PD_CHECK_RUN_<pid>_…) in its servers' environments names. */
  pid: number | undefined;
}

/** The CLI, killed (and failed) if it ever outlives the hang guard. */
export function runBounded(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    const guard = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, HANG_GUARD_MS);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr, ms: performance.now() - started, killed, pid: child.pid });
    });
  });
}

/**
 * Processes of this run still alive whose command line names this fixture: the CLI itself, a
 * server carrying its run marker, or a process that shed every marker (a helper started with an
 * empty environment). Test files run in parallel, and another file's run of the same fixture —
 * its CLI, its servers with their own marker — is not this run's leak.
 */
export function survivors(fixture: string, run: Pick<Run, 'pid'>): string[] {
  const found: string[] = [];
  const ours = Buffer.from(`MCP_PD_CHECK_RUN_${run.pid}_`);
  const anyMarker = Buffer.from('MCP_PD_CHECK_RUN_');
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (!cmdline.includes(`hostile/${fixture}.js`)) continue;
      const environ = readFileSync(`/proc/${pid}/environ`);
      const isOurs =
        Number(pid) === run.pid ||
        environ.includes(ours) ||
        (!environ.includes(anyMarker) && !cmdline.includes('cli/cli.js'));
      if (isOurs) found.push(`${pid}: ${cmdline.trim()}`);
    } catch {
      /* gone */
    }
  }
  return found;
}

/** The assertions a subtest offers (what assertVerdict uses). */
export type Asserts = Pick<typeof t, 'ok' | 'notOk' | 'equal' | 'match' | 'notMatch' | 'same'>;

/** The common verdict rules: exit 1 or 3, no stack trace, one readable line when unreachable. */
export function assertVerdict(t: Asserts, run: Run, expectedCode: 0 | 1 | 3): CheckReport | undefined {
  t.notOk(run.killed, 'finished within its bounds');
  t.equal(run.code, expectedCode, `exit ${expectedCode}`);
  t.notMatch(run.stderr, /\n\s+at .+:\d+:\d+\)?\n|internal error/, 'no stack trace');
  t.notMatch(
    run.stderr,
    /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/,
    'no raw control or bidi characters on stderr',
  );
  if (expectedCode === 3) {
    t.match(run.stderr, /^mcp-pd-check: cannot check '[^\n]+': [^\n]+\n$/, 'one line that says why');
    return undefined;
  }
  const report = JSON.parse(run.stdout) as CheckReport;
  t.same(reportSchemaErrors(report), [], 'the report is schema-valid');
  return report;
}
