// Hand-written in-process cases of the checks of MCP itself (mcp-*), beyond their fixtures: each
// breaks one thing. test/checks.test.ts runs them.
import { referenceBehaviour } from '../../reference-server/server.js';
import { MODERN_ERA } from '../../src/transport/era.js';
import { rewriteReads } from '../../fixtures/servers/serve.js';
import { amendModern, mapTools, plain, ref, type CheckCases } from './in-process-cases.js';

export const PROTOCOL_CASES: CheckCases = {
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
  'mcp-session-lifecycle': { invalid: [] },
  'mcp-origin-validation': { invalid: [] },
};
