// What the hostile-fixture test files share beyond support/hostile.ts: a case (the verdict a fixture
// gets and what proves it was understood), what a check said, and which test file runs which fixture
// (the coverage test in hostile.test.ts reads every file's list from here).
import type { CheckReport } from '../../src/generated/report.js';

/** What a check said: its messages and the notes of its exchanges (why a request got no answer). */
export function saidBy(report: CheckReport | undefined, id: string): string {
  const result = report?.results.find((r) => r.id === id);
  return (result?.findings ?? [])
    .flatMap((f) => [f.message, ...(f.transcript ?? []).map((ex) => ex.note ?? '')])
    .join('\n');
}

/** A fixture's exit code and, when a check says it, the check, its status and the finding that proves it. */
export interface Case {
  code: 0 | 1 | 3;
  check?: string;
  status?: 'fail' | 'pass';
  proves?: RegExp;
  args?: string[];
}

/**
 * The hostile fixtures each test file runs, besides the STDIO cases of hostile.test.ts: each fixture
 * once, under the file that proves it is handled.
 */
export const HOSTILE_SERVERS_BY_TEST: Record<string, string[]> = {
  'hostile.test.ts': ['remote-ref'],
  'hostile-deadlines.test.ts': ['stalls-after-probe', 'slow-later-starts'],
  'hostile-http.test.ts': [
    'http-500',
    'http-500-to-discover',
    'http-404-session',
    'http-html',
    'http-exits-mid-run',
    'http-silent',
    'http-keep-alive',
  ],
  'hostile-text.test.ts': ['hostile-text'],
  'stability.test.ts': ['current-session-race', 'proto-keys-everywhere', 'http-endless-streams'],
  'leaks.test.ts': ['env-echo', 'http-echo-headers'],
  'leaks-other-origins.test.ts': ['http-redirects'],
  'leaks-processes.test.ts': ['sigterm-proof-helpers'],
};
