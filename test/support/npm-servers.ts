// The real servers from npm that the interop tests start (devDependencies, from node_modules), and what
// the spy relay between checker and server saw: the calls it passed, and the tools a server received.
import type { Test } from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckReport } from '../../src/generated/report.js';
import { ROOT } from '../helpers.js';

/** Where the servers are installed. */
export const MODULES = join(ROOT, 'node_modules', '@modelcontextprotocol');
/** The relay (support/spy-server.ts) that logs every tools/call between the checker and a server. */
export const SPY = join(ROOT, 'dist', 'test', 'support', 'spy-server.js');

/** A call the spy passed on: its tool, refused for want of its description, or refused for its arguments. */
export interface Spied {
  tool: string;
  refused: boolean;
  argumentsRefused: boolean;
}

/** The calls a spy log holds, one JSON line each, in order (none if there is no log). */
export function spiedCalls(log: string): Spied[] {
  return existsSync(log)
    ? readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Spied)
    : [];
}

/** Every tool the server received a call of, answered or not (the spy's LOG.received). */
export function receivedTools(log: string): Set<string> {
  return new Set(spiedCalls(`${log}.received`).map((c) => c.tool));
}

/** The report says a tool was not called only when the server received no call of it. */
export function assertNotCalledIsTrue(t: Test, report: CheckReport, log: string): void {
  const received = receivedTools(log);
  const claimed = (report.verdict?.notCalled ?? []).map((n) => n.tool);
  t.same(
    claimed.filter((tool) => received.has(tool)),
    [],
    `no tool said not called was received (said: ${claimed.join(', ') || 'none'})`,
  );
}
