// A stdio relay for interop tests: `node spy-server.js LOG -- <server command…>` starts the real
// server, passes every line through unchanged, and appends one JSON line per tools/call to LOG:
// which tool, whether the server refused it with TOOL_DESCRIPTION_REQUIRED, and whether its argument
// check refused it (the tool did not run). What the server
// was really asked to run is then known from the server's side, not from the checker's report.
// LOG.received gets a line per tools/call as it arrives, answered or not (a slow tool's call too).
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [log, dashes, command, ...args] = process.argv.slice(2);
if (!log || dashes !== '--' || !command) {
  process.stderr.write('usage: spy-server LOG -- COMMAND [ARGS…]\n');
  process.exit(2);
}
const server = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const calls = new Map<unknown, string>();

createInterface({ input: process.stdin })
  .on('line', (line) => {
    try {
      const m = JSON.parse(line) as { id?: unknown; method?: string; params?: { name?: string } };
      if (m.method === 'tools/call' && m.id !== undefined) {
        calls.set(m.id, String(m.params?.name));
        appendFileSync(`${log}.received`, `${JSON.stringify({ pid: process.pid, tool: String(m.params?.name) })}\n`);
      }
    } catch {
      /* not ours to judge */
    }
    server.stdin.write(`${line}\n`);
  })
  .on('close', () => server.stdin.end());

createInterface({ input: server.stdout }).on('line', (line) => {
  try {
    const m = JSON.parse(line) as { id?: unknown };
    const tool = calls.get(m.id);
    if (tool !== undefined) {
      calls.delete(m.id);
      // Whether its own argument check refused the call (it did not run): the SDKs' wording, or -32602.
      const argumentsRefused = /invalid (arguments|input|params)|validation error|"code":-32602/i.test(line);
      appendFileSync(
        log,
        `${JSON.stringify({ pid: process.pid, tool, refused: line.includes('TOOL_DESCRIPTION_REQUIRED'), argumentsRefused })}\n`,
      );
    }
  } catch {
    /* passed through as it is */
  }
  process.stdout.write(`${line}\n`);
});

server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
process.on('SIGTERM', () => server.kill('SIGTERM'));
