// Runs after the whole tap suite (npm test): no process that the suite started may outlive it.
// Not a .test.ts file, so that tap does not run it in parallel with the tests it inspects.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT } from './helpers.js';

const DIST = join(ROOT, 'dist');
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
function leftovers(): string[] {
  const found: string[] = [];
  const mine = ancestors();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p) && !mine.has(Number(p)))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const cmdline = args.join(' ');
      const environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      const runsOurCode = args.some((a) => {
        const path = resolve(cwd, a);
        return (path.startsWith(`${DIST}/`) && !path.startsWith(`${DIST}/test/`)) || path.startsWith(`${NODE_MODULES}/`);
      });
      const started = environ.includes('MCP_PD_CHECK_RUN=')
        || runsOurCode
        || (/chromium/.test(cmdline) && cmdline.includes('--remote-debugging-pipe'));
      if (started) found.push(`pid ${pid}: ${cmdline.slice(0, 200)}`);
    } catch { /* gone, or not ours */ }
  }
  return found;
}

// Killed processes take a moment to be reaped.
let found = leftovers();
for (let i = 0; i < 20 && found.length; i++) {
  await new Promise((done) => setTimeout(done, 100));
  found = leftovers();
}
if (found.length) {
  process.stdout.write(`not ok - ${found.length} process(es) outlived the test suite:\n${found.map((f) => `  ${f}`).join('\n')}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write('ok - no process outlived the test suite\n');
}
