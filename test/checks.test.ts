// Every live check, in-process (no process spawned): valid cases pass, each invalid case produces
// exactly its codes. The fixture servers' own behaviours are reused here; test/fixtures.test.ts
// runs the same fixtures end to end as processes.
import { MIRRORS_KEY } from '../src/protocol/tool-form.js';
import t from 'tap';
import { join } from 'node:path';
import { LIVE_CHECKS } from '../checks/index.js';
import { referenceBehaviour, type Behaviour } from '../reference-server/server.js';
import type { LiveCheck } from '../src/run/check.js';
import { LEGACY_ERA, MODERN_ERA, type Era } from '../src/transport/era.js';
import { cleanStatusOverStdio, REFERENCE_CARDS, tempDir } from './helpers.js';
import {
  runInProcess,
  testCheck,
  type InProcessServer,
  type InvalidCase,
  type Script,
  type ValidCase,
} from './support/check-tester.js';
import { rewriteReads } from '../fixtures/servers/serve.js';
import { FIXTURES, MAX_STEPS } from './support/fixtures.js';

// The shared-grant-store fixture keeps its grants in this file (one per test run).
process.env.GRANT_STORE = join(tempDir(), 'grants.json');

const ref = (overrides: Partial<Behaviour> = {}, kind: 'stdio' | 'http' = 'stdio', era?: Era): InProcessServer => ({
  reference: overrides,
  kind,
  ...(era ? { era } : {}),
});
/** The era a check is run in-process in: 2025-11-25, unless the check is of 2026-07-28 only. */
const eraOf = (check: LiveCheck): Era | undefined =>
  check.eras && !check.eras.includes(LEGACY_ERA) ? check.eras[0] : undefined;
const mapTools = (f: (tool: Record<string, unknown>, i: number) => Record<string, unknown>): Partial<Behaviour> => ({
  listTools: (state) =>
    referenceBehaviour.listTools(state).map((tool, i) => f(tool as unknown as Record<string, unknown>, i) as never),
});

/**
 * A reference server whose 2026-07-28 answers to one method are changed: the result, or an error in place of any error.
 */
function amendModern(
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
const plain: Script = (m) => {
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
function fixtureCases(check: LiveCheck): InvalidCase[] {
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

/** Hand-written cases beyond the fixtures, per check: each breaks one thing. */
const CASES: Record<string, { valid?: ValidCase[]; invalid: InvalidCase[] }> = {
  'pd-minimal-descriptions': {
    valid: [
      // Words counted by a segmenter: a Japanese sentence is many words, not one.
      {
        name: 'descriptions in Japanese and German',
        server: ref(
          mapTools((t, i) => ({
            ...t,
            description: i % 2 ? 'IDを指定してメモを一件取得します。' : 'Ruft eine Notiz anhand ihrer ID ab.',
          })),
        ),
      },
    ],
    invalid: [
      {
        name: 'no description',
        server: ref(mapTools((t, i) => (i === 0 ? { ...t, description: '' } : t))),
        codes: ['no-description'],
      },
      {
        name: 'two words',
        server: ref(mapTools((t, i) => (i === 0 ? { ...t, description: 'Gets notes.' } : t))),
        codes: ['too-few-words'],
      },
      {
        name: 'a paragraph',
        server: ref(
          mapTools((t, i) =>
            i === 0 ? { ...t, description: `${String(t.description)} ${'More words here. '.repeat(30)}` } : t,
          ),
        ),
        codes: ['long-description'],
      },
      { name: 'no tools at all', server: ref({ listTools: () => [] }), codes: ['empty-list'] },
    ],
  },
  'pd-resource-listed': {
    invalid: [
      { name: 'not listed', server: ref({ listResources: () => [] }), codes: ['not-listed'] },
      {
        name: 'a near miss',
        server: ref({
          listResources: (s) =>
            referenceBehaviour.listResources(s).map((r) => ({ ...r, uri: 'resource:///tool_descriptions_v2' })),
        }),
        codes: ['near-miss'],
      },
      {
        name: 'text/plain',
        server: ref({
          listResources: (s) => referenceBehaviour.listResources(s).map((r) => ({ ...r, mimeType: 'text/plain' })),
        }),
        codes: ['mime-type'],
      },
      { name: 'no resources at all', server: { script: plain }, codes: ['resources-list-failed'] },
    ],
  },
  'pd-tools-parameter': {
    invalid: [
      {
        name: 'only the first of several names',
        server: ref(rewriteReads((b) => Object.fromEntries(Object.entries(b).slice(0, 1)))),
        codes: ['multi-fetch-failed'],
      },
    ],
  },
  'pd-full-descriptions': {
    invalid: [
      {
        name: 'an entry without inputSchema',
        server: ref(
          rewriteReads((b) =>
            'get_note' in b ? { ...b, get_note: { ...(b.get_note as object), inputSchema: undefined } } : b,
          ),
        ),
        codes: ['missing-field'],
      },
      {
        name: 'a requested tool left out',
        server: ref(rewriteReads((b) => Object.fromEntries(Object.entries(b).filter(([k]) => k !== 'get_note')))),
        codes: ['missing-entry'],
      },
    ],
  },
  'pd-missing-tool-selection': {
    invalid: [
      {
        name: 'no example URIs',
        server: ref(rewriteReads((b) => ('error' in b ? { error: { ...(b.error as object), examples: [] } } : b))),
        codes: ['no-example-uris'],
      },
    ],
  },
  'pd-authorization-enforced': {
    invalid: [
      {
        name: 'one fetch authorizes every tool',
        server: ref({
          authorize: (state, tools) => {
            if (tools.length) referenceBehaviour.listTools(state).forEach((t) => state.grants.add(t.name));
          },
        }),
        codes: ['fetch-authorized-other'],
      },
    ],
  },
  'pd-description-required': {
    invalid: [
      { name: 'calls run unfetched', server: ref({ isAuthorized: () => true }), codes: ['ran-unfetched'] },
      {
        name: 'refusals without isError',
        server: ref({ refuse: (tool) => ({ ...referenceBehaviour.refuse(tool), isError: false }) }),
        codes: ['no-is-error'],
      },
    ],
  },
  'pd-session-isolation': { invalid: [] },
  'pd-unknown-tool': {
    invalid: [
      {
        name: 'available_tools reveals a hidden tool',
        server: ref(
          rewriteReads((b) =>
            'pd_check_no_such_tool' in b
              ? {
                  ...b,
                  pd_check_no_such_tool: {
                    error: 'not found',
                    available_tools: [
                      'get_note',
                      'list_notes',
                      'search_notes',
                      'create_note',
                      'update_note',
                      'delete_note',
                      'get_tool_descriptions',
                      'admin_wipe',
                    ],
                  },
                }
              : b,
          ),
        ),
        codes: ['reveals-hidden-tools'],
      },
    ],
  },
  'pd-token-savings': {
    valid: [{ name: 'no resource: nothing to compare', server: { script: plain }, status: 'skip' }],
    invalid: [],
  },
  'mcp-tool-names': {
    invalid: [
      {
        name: 'a space in a name',
        server: ref(mapTools((t, i) => (i === 0 ? { ...t, name: 'get note' } : t))),
        codes: ['name-invalid'],
      },
      {
        name: 'names that differ in case',
        server: ref(
          mapTools((t) =>
            t.name === 'get_note'
              ? { ...t, name: 'GET_NOTE' }
              : t.name === 'list_notes'
                ? { ...t, name: 'get_note' }
                : t,
          ),
        ),
        codes: ['name-case-collision'],
      },
    ],
  },
  'mcp-tools-pagination': {
    invalid: [
      {
        name: 'an error on the second page',
        server: ref({
          pageTools: (all, cursor) => {
            if (cursor) throw Object.assign(new Error('boom'), { code: -32603 });
            return { tools: all.slice(0, 2), nextCursor: 'x' };
          },
        }),
        codes: ['pagination-broken'],
      },
    ],
  },
  'mcp-output-schema': {
    invalid: [
      {
        name: 'no structuredContent',
        server: ref({
          toolResult: (tool, value) => {
            const r = referenceBehaviour.toolResult(tool, value);
            delete r.structuredContent;
            return r;
          },
        }),
        codes: ['no-structured-content'],
      },
    ],
  },
  'mcp-wire-valid': {
    invalid: [
      {
        name: 'a string error code',
        server: {
          script: (m) => (m.method === 'resources/list' ? { error: { code: 'OOPS', message: 'x' } } : plain(m, 1)),
        },
        codes: ['bad-envelope'],
      },
    ],
  },
  'dashdash-server-metadata': {
    valid: [{ name: 'no dashdash at all: skipped', server: { script: plain }, status: 'skip' }],
    invalid: [
      {
        name: 'specVersion 0.1.0',
        server: ref({
          initializeExtras: () => ({
            dashdash: { ...(referenceBehaviour.initializeExtras().dashdash as object), specVersion: '0.1.0' },
          }),
        }),
        codes: ['spec-version-too-old'],
      },
      { name: 'dashdash on tools only', server: ref({ initializeExtras: () => ({}) }), codes: ['not-in-initialize'] },
      {
        name: '--require dashdash on a server without it',
        server: { script: plain },
        options: { require: ['dashdash'] },
        codes: ['dashdash-required'],
      },
    ],
  },
  'dashdash-tool-metadata': {
    invalid: [
      {
        name: 'reverseMethod names no tool',
        server: ref(
          mapTools((t, i) =>
            i === 0 ? { ...t, dashdash: { ...(t.dashdash as object), reverseMethod: 'undo_everything' } } : t,
          ),
        ),
        codes: ['reverse-method-unknown'],
      },
    ],
  },
  'dashdash-resource-metadata': { invalid: [] },
  'dashdash-ai-help': {
    invalid: [
      {
        name: 'section ignored',
        server: ref({ aiHelp: (params) => referenceBehaviour.aiHelp({ ...params, section: undefined }) }),
        codes: ['section-not-honoured'],
      },
      {
        name: 'no ai_help',
        server: ref({
          aiHelp: () => {
            throw Object.assign(new Error('Method not found'), { code: -32601 });
          },
        }),
        codes: ['not-implemented'],
      },
    ],
  },
  'mcp-capabilities': {
    invalid: [
      {
        name: 'resources listed but not declared',
        server: ref({
          initializeExtras: () => ({ ...referenceBehaviour.initializeExtras(), capabilities: { tools: {} } }),
        }),
        codes: ['no-resources-capability'],
      },
    ],
  },
  'mcp-input-schema': {
    invalid: [
      {
        name: 'a plain server whose one tool takes any object',
        server: { script: plain },
        codes: ['input-schema-no-properties'],
      },
      {
        name: 'a tuple as a draft-07 items array',
        server: ref(
          rewriteReads((body) => ({
            ...body,
            list_notes: {
              ...(body.list_notes as object),
              inputSchema: {
                type: 'object',
                properties: { range: { type: 'array', items: [{ type: 'integer' }, { type: 'integer' }] } },
              },
            },
          })),
        ),
        codes: ['draft07-construct'],
      },
      {
        name: 'no parameters, any object accepted',
        server: ref(
          rewriteReads((body) => ({
            ...body,
            list_notes: { ...(body.list_notes as object), inputSchema: { type: 'object' } },
          })),
        ),
        codes: ['input-schema-no-properties'],
      },
    ],
  },
  'mcp-input-validation': {
    valid: [
      { name: '--safe-calls: only read-only tools are called', server: ref(), options: { safeCalls: true } },
      {
        name: 'a plain server whose one tool takes anything: nothing to test, skipped',
        server: { script: plain },
        status: 'skip',
      },
    ],
    invalid: [
      {
        name: 'no validation, under --safe-calls: a read-only tool succeeds, another crashes into -32603 (not a refusal of its arguments)',
        server: ref({ validateArguments: () => [] }),
        options: { safeCalls: true },
        codes: ['accepted-invalid', 'not-validated'],
      },
    ],
  },
  'toolcard-files': {
    valid: [{ name: 'no --cards: skipped with the reason', server: ref(), status: 'skip' }],
    invalid: [
      {
        name: 'a card for a tool the server does not list',
        server: ref({ listTools: (s) => referenceBehaviour.listTools(s).filter((t) => t.name !== 'search_notes') }),
        options: { cardsDir: REFERENCE_CARDS },
        codes: ['card-for-unlisted-tool'],
      },
    ],
  },
  'mcp-ping': { invalid: [] },
  'mcp-modern-results': {
    invalid: [
      {
        name: 'a negative ttlMs on tools/list',
        server: ref(
          amendModern('tools/list', (r) => ({ ...r, ttlMs: -1 })),
          'stdio',
          MODERN_ERA,
        ),
        codes: ['bad-ttl'],
      },
      {
        name: 'cacheScope "shared" on resources/list',
        server: ref(
          amendModern('resources/list', (r) => ({ ...r, cacheScope: 'shared' })),
          'stdio',
          MODERN_ERA,
        ),
        codes: ['bad-cache-scope'],
      },
      {
        name: 'server/discover without serverInfo',
        server: ref(
          amendModern('server/discover', (r) => ({ ...r, _meta: {} })),
          'stdio',
          MODERN_ERA,
        ),
        codes: ['no-server-info'],
      },
    ],
  },
  'mcp-resource-not-found': {
    valid: [
      {
        name: 'a server that serves any URI (contents for all)',
        server: ref({ readResource: (uri) => ({ contents: [{ uri, text: 'anything' }] }) }, 'stdio', MODERN_ERA),
      },
      {
        name: 'a server without resources',
        server: ref(
          { initializeExtras: () => ({ capabilities: { tools: {} } }), listResources: () => [] },
          'stdio',
          MODERN_ERA,
        ),
        status: 'skip',
      },
    ],
    invalid: [
      {
        name: 'empty contents for an unknown resource',
        server: ref(
          {
            readResource: (uri, state) =>
              uri.startsWith('resource:///tool_descriptions')
                ? referenceBehaviour.readResource(uri, state)
                : { contents: [] },
          },
          'stdio',
          MODERN_ERA,
        ),
        codes: ['empty-contents'],
      },
      {
        name: 'internal error for an unknown resource',
        server: ref(
          amendModern('resources/read', (r) => r, { code: -32603, message: 'boom' }),
          'stdio',
          MODERN_ERA,
        ),
        codes: ['wrong-not-found-code'],
      },
    ],
  },
  'mcp-tool-budget': {
    valid: [
      { name: 'within budgets at the figure: 7 tools and at most 7', server: ref(), options: { maxTools: 7 } },
      { name: 'no budget given: it measures only', server: { script: plain } },
    ],
    invalid: [
      { name: 'one tool past --max-tools', server: ref(), options: { maxTools: 6 }, codes: ['over-max-tools'] },
      {
        name: 'one token past --max-tokens',
        server: { script: plain },
        options: { maxTokens: 1 },
        codes: ['over-max-tokens'],
      },
    ],
  },
  'pd-selection-fidelity': { invalid: [] },
  'pd-descriptions-tool': {
    valid: [
      {
        name: 'a server that offers no tool form: skipped, saying so',
        server: ref({ descriptionsTool: () => undefined }),
        status: 'skip',
      },
    ],
    invalid: [],
  },
  'mcp-session-lifecycle': { invalid: [] },
  'mcp-origin-validation': { invalid: [] },
  'toolcard-well-known': {
    valid: [{ name: 'over stdio: skipped by the runner (needs http)', server: ref(), status: 'skip' }],
    invalid: [
      {
        name: 'destructive without approval',
        server: ref(
          {
            toolCard: (tool) => {
              const c = referenceBehaviour.toolCard(tool) as { safety?: Record<string, unknown> };
              return tool === 'delete_note' ? { ...c, safety: { ...c.safety, human_approval_required: false } } : c;
            },
          },
          'http',
        ),
        codes: ['destructive-without-approval'],
      },
      {
        name: 'one tool without a card',
        server: ref(
          { toolCard: (tool) => (tool === 'get_note' ? undefined : referenceBehaviour.toolCard(tool)) },
          'http',
        ),
        codes: ['cards-missing'],
      },
    ],
  },
};

t.test('every live check has in-process cases', async (t) => {
  t.same(Object.keys(CASES).sort(), LIVE_CHECKS.map((c) => c.id).sort());
});

for (const check of LIVE_CHECKS) {
  t.test(`${check.id}: valid and invalid cases, in-process`, async (t) => {
    const own = CASES[check.id];
    const reference = ref({}, check.needs === 'http' ? 'http' : 'stdio', eraOf(check));
    const invalid = [...fixtureCases(check), ...own.invalid];
    // A fault of the HTTP layer is proven by its fixture over real HTTP (fixtures.test, fixture-matrix.test).
    t.ok(
      invalid.length > 0 || FIXTURES.some((f) => f.check === check.id && f.expectation.httpLayer),
      'at least one invalid case',
    );
    // Card files are compared only when a folder is given: the reference server's own.
    const options = check.id === 'toolcard-files' ? { cardsDir: REFERENCE_CARDS } : undefined;
    // A check of the HTTP layer itself skips in-process (there is no HTTP layer): its fixtures prove it over HTTP.
    const httpLayer = FIXTURES.some((f) => f.check === check.id && f.expectation.httpLayer);
    await testCheck(t, check, {
      valid: [
        {
          name: 'the reference server',
          server: reference,
          ...(options ? { options } : {}),
          ...(httpLayer ? { status: 'skip' as const } : {}),
        },
        ...(own.valid ?? []),
      ],
      invalid,
    });
  });
}

t.test('a correct server with a server-specific URI scheme (no //) passes every check', async (t) => {
  const custom = 'orders+pd:/catalog/v2/tool_descriptions';
  const toReference = (uri: string) => uri.replace(custom, 'resource:///tool_descriptions');
  const server = ref({
    listResources: (state) =>
      referenceBehaviour.listResources(state).map((r) => ({
        ...r,
        uri: custom,
        description: (r.description ?? '').replaceAll('resource:///tool_descriptions', custom),
      })),
    // The tool form says which resource it mirrors: this one.
    descriptionsTool() {
      const entry = referenceBehaviour.descriptionsTool.call(this)!;
      return { ...entry, _meta: { [MIRRORS_KEY]: custom } };
    },
    readResource(uri, state) {
      const result = referenceBehaviour.readResource.call(this, toReference(uri), state);
      return {
        contents: result.contents.map((c) => ({
          ...c,
          uri,
          text: (c as { text: string }).text.replaceAll('resource:///tool_descriptions', custom),
        })),
      };
    },
    refuse: (tool) => {
      const result = referenceBehaviour.refuse(tool);
      return {
        ...result,
        content: [
          {
            type: 'text',
            text: (result.content[0] as { text: string }).text.replaceAll('resource:///tool_descriptions', custom),
          },
        ],
      };
    },
  });
  const report = await runInProcess(LIVE_CHECKS, server);
  for (const r of report.results)
    t.equal(
      r.status,
      cleanStatusOverStdio(r.id, r.era ?? LEGACY_ERA),
      `${r.id}: ${JSON.stringify(r.findings.filter((f) => f.level !== 'info').map((f) => f.message))}`,
    );
  t.equal(report.verdict?.implements, 'yes');
});

t.test('a resource that works but is not listed: found from the refusals, the rest tested against it', async (t) => {
  const report = await runInProcess(LIVE_CHECKS, ref({ listResources: () => [] }));
  t.same(
    report.verdict?.resource,
    { uri: 'resource:///tool_descriptions', source: 'refusal' },
    'the verdict says which URI was used and where it came from',
  );
  t.equal(report.verdict?.implements, 'partly');
  t.match(
    report.verdict?.summary,
    /works at resource:\/\/\/tool_descriptions \(named by a refusal's resource_uri\), but resources\/list does not list it/,
  );
  const failing = report.results.filter((r) => r.status === 'fail').map((r) => r.id);
  t.same(failing, ['pd-resource-listed'], 'only the listing fails');
  // Without refusals to go by (criterion 7 not run), the spec's default URI is tried.
  const alone = await runInProcess(
    LIVE_CHECKS.filter((c) => c.id === 'pd-tools-parameter'),
    ref({ listResources: () => [] }),
  );
  t.equal(alone.results[0].status, 'pass');
  t.same(alone.verdict?.resource, { uri: 'resource:///tool_descriptions', source: 'default' });
});
