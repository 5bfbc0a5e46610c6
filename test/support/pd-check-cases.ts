// Hand-written in-process cases of the progressive-disclosure checks (pd-*), beyond their fixtures:
// each breaks one thing. test/checks.test.ts runs them.
import { referenceBehaviour } from '../../reference-server/server.js';
import { rewriteReads } from '../../fixtures/servers/serve.js';
import { mapTools, plain, ref, type CheckCases } from './in-process-cases.js';

export const PD_CASES: CheckCases = {
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
};
