// The servers the in-process cases of the live checks run against (test/checks.test.ts, and the
// case tables in test/support/*-check-cases.ts): the reference server with some behaviour replaced, a
// plain server without progressive disclosure, and the invalid cases the fixture servers make.
import { referenceBehaviour, type Behaviour } from '../../reference-server/server.js';
import type { LiveCheck } from '../../src/run/check.js';
import { LEGACY_ERA, type Era } from '../../src/transport/era.js';
import type { InProcessServer, InvalidCase, Script, ValidCase } from './check-tester.js';
import { FIXTURES, MAX_STEPS } from './fixtures.js';

/** In-process cases by check id: valid cases beside the reference server, and invalid ones. */
export type CheckCases = Record<string, { valid?: ValidCase[]; invalid: InvalidCase[] }>;

export const ref = (
  overrides: Partial<Behaviour> = {},
  kind: 'stdio' | 'http' = 'stdio',
  era?: Era,
): InProcessServer => ({
  reference: overrides,
  kind,
  ...(era ? { era } : {}),
});
/** The era a check is run in-process in: 2025-11-25, unless the check is of 2026-07-28 only. */
export const eraOf = (check: LiveCheck): Era | undefined =>
  check.eras && !check.eras.includes(LEGACY_ERA) ? check.eras[0] : undefined;
export const mapTools = (
  f: (tool: Record<string, unknown>, i: number) => Record<string, unknown>,
): Partial<Behaviour> => ({
  listTools: (state) =>
    referenceBehaviour.listTools(state).map((tool, i) => f(tool as unknown as Record<string, unknown>, i) as never),
});

/**
 * A reference server whose 2026-07-28 answers to one method are changed: the result, or an error in place of any error.
 */
export function amendModern(
  method: string,
  result: (r: Record<string, unknown>) => Record<string, unknown>,
  error?: Record<string, unknown>,
): Partial<Behaviour> {
  return {
    modernAnswer(m, answer) {
      if (m !== method) return answer;
      if (answer.error !== undefined) return error ? { ...answer, error } : answer;
      return { ...answer, result: result(answer.result as Record<string, unknown>) };
    },
  };
}

/** A plain server without progressive disclosure: tools only, calls always run. */
export const plain: Script = (m) => {
  switch (m.method) {
    case 'initialize':
      return {
        result: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'plain', version: '1' },
        },
      };
    case 'tools/list':
      return {
        result: {
          tools: [
            { name: 'echo', description: 'Echoes its input back to the caller.', inputSchema: { type: 'object' } },
          ],
        },
      };
    case 'tools/call':
      return { result: { content: [{ type: 'text', text: 'ok' }] } };
    default:
      return { error: { code: -32601, message: 'Method not found' } };
  }
};

/** The invalid cases of a check that its fixture servers make (each declares its codes). */
export function fixtureCases(check: LiveCheck): InvalidCase[] {
  const cases: InvalidCase[] = [];
  for (const fixture of FIXTURES.filter((f) => f.check === check.id)) {
    // A fault that shows only over a whole run (a grant that expires) is tested end to end only;
    // one of Mcp-Session-Id (an ended session still answered) needs the HTTP transport itself.
    // A fault of one protocol era is proven in both eras, over real transports; in-process only
    // when its check is of that era alone (the tester then speaks it).
    const era = fixture.expectation.era;
    if (fixture.expectation.wholeRunOnly || fixture.expectation.httpLayer || (era && eraOf(check) !== era)) continue;
    // HTTP-only fixtures fail in-process too: every in-process session shares the process.
    // A fixture that breaks a rule of the model: the exploration finds it and shrinks it.
    // (A check that is no criterion runs alone without an exploration: its sequences are proven in whole runs.)
    const shortest = fixture.modelRule && check.spec.criterion !== undefined ? MAX_STEPS : undefined;
    const expected =
      fixture.expected === 'not-proven' ? { codes: [], notProven: fixture.codes[0] } : { codes: fixture.codes };
    cases.push({
      name: `fixture ${fixture.name}`,
      server: ref(fixture.overrides, check.needs === 'http' ? 'http' : 'stdio', era),
      ...expected,
      ...(shortest ? { shortest } : {}),
      ...(fixture.cards ? { options: { cardsDir: fixture.cards } } : {}),
    });
  }
  return cases;
}
