// Runs after the whole tap suite (npm test): no process that the suite started may outlive it.
// Not a .test.ts file, so that tap does not run it in parallel with the tests it inspects.
// `--before`, run before the suite, notes the processes of the same kinds already running (a
// user's own `serve` or reference server): those are not the suite's, and never counted.
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT } from './helpers.js';

const DIST = join(ROOT, 'dist');
const BEFORE = join(DIST, 'test', '.processes-before.json');
const NODE_MODULES = join(ROOT, 'node_modules');

/** This process and its ancestors (npm test, the shell that ran it) are not leftovers. */
function ancestors(): Set<number> {
  const mine = new Set<number>();
  let pid = process.pid;
  while (pid > 1 && !mine.has(pid)) {
    mine.add(pid);
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      break;
    }
  }
  return mine;
}

/**
 * Servers the checker started (they carry its run marker), servers the tests started from dist/
 * or from node_modules (the real servers of the interop tests), and browsers.
 */
/** A process by its pid and start time, so that a pid reused later is not mistaken for it. */
function identity(pid: string): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return `${pid}@${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
}

function leftovers(): Array<{ id: string; line: string }> {
  const found: Array<{ id: string; line: string }> = [];
  const mine = ancestors();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p) && !mine.has(Number(p)))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const cmdline = args.join(' ');
      const environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      const runsOurCode = args.some((a) => {
        const path = resolve(cwd, a);
        return (
          (path.startsWith(`${DIST}/`) && !path.startsWith(`${DIST}/test/`)) || path.startsWith(`${NODE_MODULES}/`)
        );
      });
      const started =
        environ.includes('MCP_PD_CHECK_RUN=') ||
        runsOurCode ||
        (/chromium/.test(cmdline) && cmdline.includes('--remote-debugging-pipe'));
      if (started) found.push({ id: identity(pid), line: `pid ${pid}: ${cmdline.slice(0, 200)}` });
    } catch {
      /* gone, or not ours */
    }
  }
  return found;
}

if (process.argv.includes('--before')) {
  writeFileSync(BEFORE, JSON.stringify(leftovers().map((f) => f.id)));
} else {
  const before = new Set<string>(existsSync(BEFORE) ? (JSON.parse(readFileSync(BEFORE, 'utf8')) as string[]) : []);
  const suites = () =>
    leftovers()
      .filter((f) => !before.has(f.id))
      .map((f) => f.line);
  // Killed processes take a moment to be reaped.
  let found = suites();
  for (let i = 0; i < 20 && found.length; i++) {
    await new Promise((done) => setTimeout(done, 100));
    found = suites();
  }
  rmSync(BEFORE, { force: true });
  const already = before.size ? ` (${before.size} of the same kinds ran before the suite and are not counted)` : '';
  if (found.length) {
    process.stdout.write(
      `not ok - ${found.length} process(es) outlived the test suite${already}:\n${found.map((f) => `  ${f}`).join('\n')}\n`,
    );
    process.exitCode = 1;
  } else {
    process.stdout.write(`ok - no process outlived the test suite${already}\n`);
  }
}
